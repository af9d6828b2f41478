import { Column, Entity, ForeignKey, PrimaryColumn } from 'typeorm';

/**
 * An account's sending brake: its messages in the current and the previous clock hour (the last hour is
 * estimated from the two), its baseline (the busiest recent hour, fading), and whether sending is paused.
 * One row per account that ever sent from a live account; sends update it in their own transaction.
 */
@Entity({ name: 'sending_brakes' })
export class SendingBrake {
  @ForeignKey('Account', { name: 'sending_brakes_account_id_fkey', onDelete: 'CASCADE' })
  @PrimaryColumn({ name: 'account_id', type: 'integer' })
  accountId: number;

  /** Start of the clock hour hour_count counts (UTC, on the hour). */
  @Column({ name: 'hour_start', type: 'timestamptz' })
  hourStart: Date;

  @Column({ name: 'hour_count', type: 'integer', default: 0 })
  hourCount: number;

  /** Messages in the hour before hour_start. */
  @Column({ name: 'previous_count', type: 'integer', default: 0 })
  previousCount: number;

  /** The busiest recent hour, fading by half every SENDING_BRAKE_HALF_LIFE_HOURS. */
  @Column({ name: 'baseline', type: 'double precision', default: 0 })
  baseline: number;

  /** Set when the brake held a send; every send is refused until it is released. */
  @Column({ name: 'paused_at', type: 'timestamptz', nullable: true })
  pausedAt: Date | null;

  /** The last hour's messages with the send that was held, and the limit it went over. */
  @Column({ name: 'paused_volume', type: 'integer', nullable: true })
  pausedVolume: number | null;

  @Column({ name: 'paused_limit', type: 'integer', nullable: true })
  pausedLimit: number | null;
}
