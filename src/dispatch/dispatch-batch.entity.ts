import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * A dispatch batch whose claims may still lack an outcome: written with the claim, deleted once every
 * claimed message is recorded. The sweeper looks for abandoned claims only through these few rows
 * (and `messages.claimed_by`), never by scanning messages.
 */
@Entity({ name: 'dispatch_batches' })
export class DispatchBatch {
  @PrimaryColumn({ name: 'batch_id', type: 'uuid' })
  batchId: string;

  @Column({ name: 'claimed_at', type: 'timestamptz', default: () => 'now()' })
  claimedAt: Date;
}
