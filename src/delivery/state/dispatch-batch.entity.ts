import { Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';

/**
 * A range of a send's messages one claim took, in the send's dispatch order (after `after_*`, through
 * `through_*`): written with the claim, deleted once every message in it has its outcome recorded. The
 * sweeper looks for abandoned claims only through these few rows, never by scanning messages: a batch
 * whose dispatcher died is released (`released_at`), and the send's next claim takes its unrecorded
 * messages before moving the send's watermark.
 */
@Entity({ name: 'dispatch_batches' })
@Index('dispatch_batches_released_idx', ['sendId'], { where: 'released_at IS NOT NULL' })
export class DispatchBatch {
  @PrimaryColumn({ name: 'batch_id', type: 'uuid' })
  batchId: string;

  @Column({ name: 'claimed_at', type: 'timestamptz', default: () => 'now()' })
  claimedAt: Date;

  @ForeignKey('Send', { name: 'dispatch_batches_send_id_fkey', onDelete: 'CASCADE' })
  @Column({ name: 'send_id', type: 'bigint' })
  sendId: number;

  @Column({ name: 'after_at', type: 'timestamptz' })
  afterAt: Date;

  @Column({ name: 'after_seq', type: 'bigint' })
  afterSeq: number;

  @Column({ name: 'through_at', type: 'timestamptz' })
  throughAt: Date;

  @Column({ name: 'through_seq', type: 'bigint' })
  throughSeq: number;

  /** Taken back from a dispatcher that died (or a batch that ended unrecorded): the next claim of the send takes it. */
  @Column({ name: 'released_at', type: 'timestamptz', nullable: true })
  releasedAt: Date | null;
}
