import { Check, Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * The simulated provider's own record of a payment (development and test accounts): what a real
 * provider keeps on its side, keyed by the idempotency key so a repeated charge replays the first.
 */
@Entity({ name: 'simulated_payments' })
@Check('simulated_payments_status_check', "status IN ('succeeded', 'declined', 'held')")
@Index('simulated_payments_idempotency_key_key', ['idempotencyKey'], { unique: true })
export class SimulatedPayment {
  @PrimaryColumn({ name: 'id', type: 'text' })
  id: string;

  @Column({ name: 'idempotency_key', type: 'text' })
  idempotencyKey: string;

  @Column({ name: 'customer_id', type: 'text' })
  customerId: string;

  @Column({ name: 'payment_method_id', type: 'text' })
  paymentMethodId: string;

  @Column({ name: 'amount_cents', type: 'integer' })
  amountCents: number;

  @Column({ name: 'currency', type: 'text' })
  currency: string;

  @Column({ name: 'status', type: 'text' })
  status: 'succeeded' | 'declined' | 'held';

  @Column({ name: 'decline_code', type: 'text', nullable: true })
  declineCode: string | null;

  @Column({ name: 'refunded', type: 'boolean', default: false })
  refunded: boolean;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
