import { Check, Column, Entity, ForeignKey, PrimaryColumn } from 'typeorm';

/** "When the balance falls below N credits, buy M credits with card X", at most K times in 24 hours. */
@Entity({ name: 'auto_recharges' })
@Check('auto_recharges_below_check', 'below_credits BETWEEN 1 AND 10000000')
@Check('auto_recharges_buy_check', 'buy_credits BETWEEN 500 AND 10000000')
@Check('auto_recharges_max_per_day_check', 'max_per_day BETWEEN 1 AND 10')
export class AutoRechargeSetting {
  @ForeignKey('Account', { name: 'auto_recharges_account_id_fkey', onDelete: 'CASCADE' })
  @PrimaryColumn({ name: 'account_id', type: 'integer', primaryKeyConstraintName: 'auto_recharges_pkey' })
  accountId: number;

  @Column({ name: 'enabled', type: 'boolean' })
  enabled: boolean;

  @Column({ name: 'below_credits', type: 'integer' })
  belowCredits: number;

  @Column({ name: 'buy_credits', type: 'integer' })
  buyCredits: number;

  @ForeignKey('PaymentCard', { name: 'auto_recharges_card_id_fkey' })
  @Column({ name: 'card_id', type: 'integer' })
  cardId: number;

  @Column({ name: 'max_per_day', type: 'integer' })
  maxPerDay: number;

  /** Why it switched itself off (a declined charge); '' while on or switched off by a person. */
  @Column({ name: 'stopped_reason', type: 'text', default: '' })
  stoppedReason: string;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
