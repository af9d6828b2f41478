import { Check, Column, Entity, ForeignKey, Index, PrimaryGeneratedColumn } from 'typeorm';

export const REGISTRATION_STATES = ['submitted', 'approved', 'rejected'] as const;
export type RegistrationState = (typeof REGISTRATION_STATES)[number];

/** An ACMA Sender ID registration, reviewed by an operator; approval makes the sender active as `alpha`. */
@Entity({ name: 'sender_registrations' })
@Check('sender_registrations_abn_check', "abn ~ '^[0-9]{11}$'")
@Check('sender_registrations_state_check', "state IN ('submitted', 'approved', 'rejected')")
@Check('sender_registrations_rejection_check', "(state = 'rejected') = (rejection_reason IS NOT NULL)")
// A brand belongs to one business: one live (submitted or approved) registration per brand, whatever races.
@Index('sender_registrations_brand_live_key', ['brandKey'], { unique: true, where: "state IN ('submitted', 'approved')" })
@Index('sender_registrations_account_idx', ['accountId', 'id'])
@Index('sender_registrations_state_idx', ['state', 'id'])
export class SenderRegistration {
  @PrimaryGeneratedColumn({ name: 'id' })
  id: number;

  @ForeignKey('Account', { name: 'sender_registrations_account_id_fkey', onDelete: 'CASCADE' })
  @Column({ name: 'account_id', type: 'integer' })
  accountId: number;

  /** The Sender ID exactly as it will be sent from. */
  @Column({ name: 'sender', type: 'text' })
  sender: string;

  /** The brand it claims: upper case, spaces removed (`My Brand` and `MYBRAND` are one brand). */
  @Column({ name: 'brand_key', type: 'text' })
  brandKey: string;

  @Column({ name: 'business_name', type: 'text' })
  businessName: string;

  /** 11 digits, checksum verified. */
  @Column({ name: 'abn', type: 'text' })
  abn: string;

  @Column({ name: 'reason', type: 'text' })
  reason: string;

  @Column({ name: 'state', type: 'text' })
  state: RegistrationState;

  @Column({ name: 'rejection_reason', type: 'text', nullable: true })
  rejectionReason: string | null;

  /** The dashboard user who submitted it; null when an API key did (api_key_id says which). */
  @Column({ name: 'user_id', type: 'integer', nullable: true })
  userId: number | null;

  @ForeignKey('ApiKey', { name: 'sender_registrations_api_key_id_fkey', onDelete: 'SET NULL' })
  @Column({ name: 'api_key_id', type: 'integer', nullable: true })
  apiKeyId: number | null;

  @Column({ name: 'submitted_at', type: 'timestamptz' })
  submittedAt: Date;

  @Column({ name: 'decided_at', type: 'timestamptz', nullable: true })
  decidedAt: Date | null;
}
