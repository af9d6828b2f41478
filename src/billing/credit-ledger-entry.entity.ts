import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

export type LedgerKind = 'grant' | 'debit' | 'refund';

/** One movement of credits. Grants and refunds are positive, debits negative; per account they sum to the balance. */
@Entity({ name: 'credit_ledger' })
@Index(['accountId', 'createdAt'])
export class CreditLedgerEntry {
  @PrimaryGeneratedColumn({ name: 'id', type: 'bigint' })
  id: number;

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
