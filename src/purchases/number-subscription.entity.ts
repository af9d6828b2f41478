import { Check, Column, Entity, ForeignKey, Index, PrimaryGeneratedColumn } from 'typeorm';

export type RenewalState = 'active' | 'retrying' | 'released';

/** A bought dedicated number: 12 months, renewed yearly on the same card, released after a failed renewal's grace period. */
@Entity({ name: 'number_subscriptions' })
@Check('number_subscriptions_renewal_state_check', "renewal_state IN ('active', 'retrying', 'released')")
@Index('number_subscriptions_live_number_key', ['number'], { unique: true, where: 'released_at IS NULL' })
@Index('number_subscriptions_account_idx', ['accountId'])
export class NumberSubscription {
  @PrimaryGeneratedColumn({ name: 'id' })
  id: number;

  @ForeignKey('DedicatedNumber', { name: 'number_subscriptions_number_fkey' })
  @Column({ name: 'number', type: 'text' })
  number: string;

  @ForeignKey('Account', { name: 'number_subscriptions_account_id_fkey', onDelete: 'CASCADE' })
  @Column({ name: 'account_id', type: 'integer' })
  accountId: number;

  @ForeignKey('Purchase', { name: 'number_subscriptions_purchase_id_fkey' })
  @Column({ name: 'purchase_id', type: 'bigint' })
  purchaseId: number;

  @ForeignKey('PaymentCard', { name: 'number_subscriptions_card_id_fkey' })
  @Column({ name: 'card_id', type: 'integer' })
  cardId: number;

  @ForeignKey('ApiKey', { name: 'number_subscriptions_api_key_id_fkey', onDelete: 'SET NULL' })
  @Column({ name: 'api_key_id', type: 'integer', nullable: true })
  apiKeyId: number | null;

  @Column({ name: 'purchased_at', type: 'timestamptz' })
  purchasedAt: Date;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt: Date;

  @Column({ name: 'renewal_state', type: 'text', default: 'active' })
  renewalState: RenewalState;

  @Column({ name: 'renewal_attempts', type: 'integer', default: 0 })
  renewalAttempts: number;

  @Column({ name: 'next_attempt_at', type: 'timestamptz', nullable: true })
  nextAttemptAt: Date | null;

  @Column({ name: 'released_at', type: 'timestamptz', nullable: true })
  releasedAt: Date | null;
}
