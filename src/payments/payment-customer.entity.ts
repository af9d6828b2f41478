import { Check, Column, CreateDateColumn, Entity, ForeignKey, PrimaryColumn } from 'typeorm';

/** The account as a customer of the payment provider (one per account). */
@Entity({ name: 'payment_customers' })
@Check('payment_customers_provider_check', "provider IN ('stripe', 'simulated')")
export class PaymentCustomer {
  @ForeignKey('Account', { name: 'payment_customers_account_id_fkey', onDelete: 'CASCADE' })
  @PrimaryColumn({ name: 'account_id', type: 'integer' })
  accountId: number;

  @Column({ name: 'provider', type: 'text' })
  provider: string;

  @Column({ name: 'customer_id', type: 'text' })
  customerId: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
