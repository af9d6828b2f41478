import { Check, Column, Entity, ForeignKey, Index, PrimaryGeneratedColumn } from 'typeorm';

export type PurchaseKind = 'credits' | 'number' | 'renewal';
/** created → charged → fulfilled, or created → declined, or created → held → fulfilled | refunded. */
export type PurchaseState = 'created' | 'charged' | 'fulfilled' | 'declined' | 'held' | 'refunded';

/**
 * One purchase: reserved against the key's daily limit when created, charged at the provider between
 * two commits, then fulfilled (credits through the ledger, a number made a sender). A charge that a
 * crash interrupted is settled by the reconciler from the provider's record of the same idempotency key.
 */
@Entity({ name: 'purchases' })
@Check('purchases_kind_check', "kind IN ('credits', 'number', 'renewal')")
@Check('purchases_state_check', "state IN ('created', 'charged', 'fulfilled', 'declined', 'held', 'refunded')")
@Check('purchases_amounts_check', 'amount_ex_gst_cents >= 0 AND gst_cents >= 0 AND amount_inc_gst_cents = amount_ex_gst_cents + gst_cents')
@Check('purchases_what_check', "(kind = 'credits' AND credits > 0 AND number IS NULL) OR (kind <> 'credits' AND credits IS NULL AND number IS NOT NULL)")
@Index('purchases_idempotency_key', ['apiKeyId', 'idempotencyKey'], { unique: true })
@Index('purchases_invoice_number_key', ['invoiceNumber'], { unique: true })
@Index('purchases_api_key_created_idx', ['apiKeyId', 'createdAt'])
@Index('purchases_account_created_idx', ['accountId', 'createdAt'])
@Index('purchases_request_key', ['accountId', 'requestKey'], { unique: true, where: 'request_key IS NOT NULL' })
@Index('purchases_unsettled_idx', ['createdAt'], { where: "state IN ('created', 'charged')" })
export class Purchase {
  @PrimaryGeneratedColumn({ name: 'id', type: 'bigint' })
  id: number;

  @ForeignKey('Account', { name: 'purchases_account_id_fkey', onDelete: 'CASCADE' })
  @Column({ name: 'account_id', type: 'integer' })
  accountId: number;

  @ForeignKey('ApiKey', { name: 'purchases_api_key_id_fkey', onDelete: 'SET NULL' })
  @Column({ name: 'api_key_id', type: 'integer', nullable: true })
  apiKeyId: number | null;

  /** The key's label and username when bought: the tax invoice names the key. */
  @Column({ name: 'api_key_label', type: 'text', default: '' })
  apiKeyLabel: string;

  @Column({ name: 'api_username', type: 'text', default: '' })
  apiUsername: string;

  @Column({ name: 'idempotency_key', type: 'text', nullable: true })
  idempotencyKey: string | null;

  @Column({ name: 'fingerprint', type: 'bytea', nullable: true })
  fingerprint: Buffer | null;

  /** A purchase made without an API key: `page:<the Billing form's own key>`; one purchase per key and account. */
  @Column({ name: 'request_key', type: 'text', nullable: true })
  requestKey: string | null;

  /**
   * Who started a purchase made without an API key, as the audit log names them (a person's email, or
   * `auto-recharge`), with their user id and address: its audit entry is written with the outcome, maybe
   * by another process. Null for a purchase by API key (not in the audit log; its invoice names the key).
   */
  @Column({ name: 'actor', type: 'text', nullable: true })
  actor: string | null;

  @Column({ name: 'actor_user_id', type: 'integer', nullable: true })
  actorUserId: number | null;

  @Column({ name: 'actor_ip', type: 'text', default: '' })
  actorIp: string;

  @Column({ name: 'kind', type: 'text' })
  kind: PurchaseKind;

  @Column({ name: 'state', type: 'text', default: 'created' })
  state: PurchaseState;

  @Column({ name: 'credits', type: 'integer', nullable: true })
  credits: number | null;

  @Column({ name: 'number', type: 'text', nullable: true })
  number: string | null;

  @ForeignKey('PaymentCard', { name: 'purchases_card_id_fkey' })
  @Column({ name: 'card_id', type: 'integer' })
  cardId: number;

  @Column({ name: 'card_last4', type: 'text' })
  cardLast4: string;

  @Column({ name: 'amount_ex_gst_cents', type: 'integer' })
  amountExGstCents: number;

  @Column({ name: 'gst_cents', type: 'integer' })
  gstCents: number;

  @Column({ name: 'amount_inc_gst_cents', type: 'integer' })
  amountIncGstCents: number;

  @Column({ name: 'provider', type: 'text' })
  provider: string;

  @Column({ name: 'provider_payment_id', type: 'text', nullable: true })
  providerPaymentId: string | null;

  /** Set when the charge succeeds (or is held): every charge has its tax invoice. */
  @Column({ name: 'invoice_number', type: 'text', nullable: true })
  invoiceNumber: string | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'charged_at', type: 'timestamptz', nullable: true })
  chargedAt: Date | null;

  /** When it reached fulfilled, declined, held or refunded. */
  @Column({ name: 'settled_at', type: 'timestamptz', nullable: true })
  settledAt: Date | null;

  @Column({ name: 'invoice_emailed_at', type: 'timestamptz', nullable: true })
  invoiceEmailedAt: Date | null;
}
