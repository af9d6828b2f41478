import { Check, Column, Entity, ForeignKey, Index, PrimaryGeneratedColumn } from 'typeorm';

export const LIVE_REQUEST_STATES = ['pending', 'approved', 'declined'] as const;
export type LiveRequestState = (typeof LIVE_REQUEST_STATES)[number];

/** A test account's request to go live, decided by an operator (account:approve / account:decline). */
@Entity({ name: 'live_requests' })
@Check('live_requests_abn_check', "abn ~ '^[0-9]{11}$'")
@Check('live_requests_state_check', "state IN ('pending', 'approved', 'declined')")
@Check('live_requests_decline_check', "(state = 'declined') = (decline_reason IS NOT NULL)")
@Check('live_requests_credits_check', "(state = 'approved') = (starting_credits IS NOT NULL) AND (starting_credits IS NULL OR starting_credits >= 0)")
// One request waits at a time, whatever races: the second insert meets this index.
@Index('live_requests_one_pending_key', ['accountId'], { unique: true, where: "state = 'pending'" })
@Index('live_requests_account_idx', ['accountId', 'id'])
@Index('live_requests_state_idx', ['state', 'id'])
export class LiveRequest {
  @PrimaryGeneratedColumn({ name: 'id' })
  id: number;

  @ForeignKey('Account', { name: 'live_requests_account_id_fkey', onDelete: 'CASCADE' })
  @Column({ name: 'account_id', type: 'integer' })
  accountId: number;

  /** The owner who asked (kept as a number: the owner may later change). */
  @Column({ name: 'user_id', type: 'integer', nullable: true })
  userId: number | null;

  @Column({ name: 'business_name', type: 'text' })
  businessName: string;

  /** 11 digits, checksum verified. */
  @Column({ name: 'abn', type: 'text' })
  abn: string;

  /** '' when none was given. */
  @Column({ name: 'website', type: 'text' })
  website: string;

  @Column({ name: 'intended_use', type: 'text' })
  intendedUse: string;

  @Column({ name: 'state', type: 'text' })
  state: LiveRequestState;

  @Column({ name: 'decline_reason', type: 'text', nullable: true })
  declineReason: string | null;

  /** Free credit granted on approval, in hundredths (0: none); null until approved. */
  @Column({ name: 'starting_credits', type: 'bigint', nullable: true })
  startingCredits: number | null;

  @Column({ name: 'submitted_at', type: 'timestamptz' })
  submittedAt: Date;

  @Column({ name: 'decided_at', type: 'timestamptz', nullable: true })
  decidedAt: Date | null;
}
