import { Check, Column, CreateDateColumn, Entity, ForeignKey, Index, PrimaryGeneratedColumn } from 'typeorm';

export type ProviderName = 'stripe' | 'simulated';

/** A card saved at the payment provider. Never the card number: the provider's id, brand, last 4 and expiry. */
@Entity({ name: 'payment_cards' })
@Check('payment_cards_provider_check', "provider IN ('stripe', 'simulated')")
@Check('payment_cards_last4_check', "last4 ~ '^[0-9]{4}$'")
@Check('payment_cards_exp_month_check', 'exp_month BETWEEN 1 AND 12')
@Index('payment_cards_account_idx', ['accountId'], { where: 'removed_at IS NULL' })
export class PaymentCard {
  @PrimaryGeneratedColumn({ name: 'id' })
  id: number;

  @ForeignKey('Account', { name: 'payment_cards_account_id_fkey', onDelete: 'CASCADE' })
  @Column({ name: 'account_id', type: 'integer' })
  accountId: number;

  @Column({ name: 'provider', type: 'text' })
  provider: ProviderName;

  /** The provider's id of the saved card (a Stripe PaymentMethod). */
  @Column({ name: 'payment_method_id', type: 'text' })
  paymentMethodId: string;

  @Column({ name: 'brand', type: 'text' })
  brand: string;

  @Column({ name: 'last4', type: 'text' })
  last4: string;

  @Column({ name: 'exp_month', type: 'integer' })
  expMonth: number;

  @Column({ name: 'exp_year', type: 'integer' })
  expYear: number;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  /** Removed cards stay for the purchases that name them; they are never charged again. */
  @Column({ name: 'removed_at', type: 'timestamptz', nullable: true })
  removedAt: Date | null;
}
