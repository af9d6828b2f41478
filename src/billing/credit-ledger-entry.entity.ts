import { Check, Column, CreateDateColumn, Entity, ForeignKey, Index, PrimaryGeneratedColumn } from 'typeorm';

export type LedgerKind = 'grant' | 'debit' | 'refund';

/** One movement of credits. Grants and refunds are positive, debits negative; per account they sum to the balance. */
@Entity({ name: 'credit_ledger' })
@Check('credit_ledger_kind_check', "kind IN ('grant', 'debit', 'refund')")
@Check('credit_ledger_check', "(kind = 'debit' AND amount < 0) OR (kind <> 'debit' AND amount > 0)")
@Index('credit_ledger_account_created_idx', ['accountId', 'createdAt'])
export class CreditLedgerEntry {
  @PrimaryGeneratedColumn({ name: 'id', type: 'bigint' })
  id: number;

  @ForeignKey('Account', { name: 'credit_ledger_account_id_fkey', onDelete: 'CASCADE' })
  @Column({ name: 'account_id', type: 'integer' })
  accountId: number;

  @Column({ name: 'kind', type: 'text' })
  kind: LedgerKind;

  /** Signed hundredths of a credit. */
  @Column({ name: 'amount', type: 'bigint' })
  amount: number;

  @Column({ name: 'reason', type: 'text', default: '' })
  reason: string;

  /** What the movement pays for or refunds, e.g. `send:42`, `message:<uuid>`, `cli`. */
  @Column({ name: 'reference', type: 'text', default: '' })
  reference: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
