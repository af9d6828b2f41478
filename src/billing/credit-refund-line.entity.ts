import { Check, Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';

/** One message a refund paid back, and how much of the refund was its cost. At most one per message. */
@Entity({ name: 'credit_refund_lines' })
@Check('credit_refund_lines_amount_check', 'amount > 0')
@Index('credit_refund_lines_ledger_entry_idx', ['ledgerEntryId'])
export class CreditRefundLine {
  /**
   * A message the refund's own transaction cancelled (no foreign key: `messages` is partitioned and its old
   * months are dropped, while the ledger keeps every line; the line goes with its ledger row).
   */
  @PrimaryColumn({ name: 'message_id', type: 'uuid' })
  messageId: string;

  @ForeignKey('CreditLedgerEntry', { name: 'credit_refund_lines_ledger_entry_id_fkey', onDelete: 'CASCADE' })
  @Column({ name: 'ledger_entry_id', type: 'bigint' })
  ledgerEntryId: number;

  /** Hundredths of a credit. */
  @Column({ name: 'amount', type: 'bigint' })
  amount: number;
}
