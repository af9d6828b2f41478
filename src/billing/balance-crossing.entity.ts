import { Check, Column, Entity, ForeignKey, Index, PrimaryGeneratedColumn } from 'typeorm';

export type CrossingKind = 'recharge' | 'warning';

/** A debit took the balance below a threshold: recorded in the debit's transaction, handled once (src/recharge). */
@Entity({ name: 'balance_crossings' })
@Check('balance_crossings_kind_check', "kind IN ('recharge', 'warning')")
@Index('balance_crossings_unhandled_idx', ['crossedAt'], { where: 'handled_at IS NULL' })
@Index('balance_crossings_account_idx', ['accountId', 'crossedAt'])
export class BalanceCrossing {
  @PrimaryGeneratedColumn({ name: 'id', type: 'bigint' })
  id: number;

  @ForeignKey('Account', { name: 'balance_crossings_account_id_fkey', onDelete: 'CASCADE' })
  @Column({ name: 'account_id', type: 'integer' })
  accountId: number;

  @Column({ name: 'kind', type: 'text' })
  kind: CrossingKind;

  /** Hundredths of a credit. */
  @Column({ name: 'threshold', type: 'bigint' })
  threshold: number;

  @Column({ name: 'balance_after', type: 'bigint' })
  balanceAfter: number;

  @Column({ name: 'crossed_at', type: 'timestamptz' })
  crossedAt: Date;

  @Column({ name: 'handled_at', type: 'timestamptz', nullable: true })
  handledAt: Date | null;

  /** What handling it did ('charged', 'declined', 'daily limit', 'mailed', 'off'...). */
  @Column({ name: 'outcome', type: 'text', default: '' })
  outcome: string;
}
