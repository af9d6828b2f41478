import { Check, Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';

/** One message a refund paid back, and how much of the refund was its cost. At most one per message. */
@Entity({ name: 'credit_refund_lines' })
@Check('credit_refund_lines_amount_check', 'amount > 0')
@Index('credit_refund_lines_ledger_entry_idx', ['ledgerEntryId'])
export class CreditRefundLine {
  @ForeignKey('Message', { name: 'credit_refund_lines_message_id_fkey', onDelete: 'CASCADE' })
  @PrimaryColumn({ name: 'message_id', type: 'uuid' })
  messageId: string;

  @ForeignKey('CreditLedgerEntry', { name: 'credit_refund_lines_ledger_entry_id_fkey', onDelete: 'CASCADE' })
  @Column({ name: 'ledger_entry_id', type: 'bigint' })
  ledgerEntryId: number;

  /** Hundredths of a credit. */
  @Column({ name: 'amount', type: 'bigint' })
  amount: number;
}
