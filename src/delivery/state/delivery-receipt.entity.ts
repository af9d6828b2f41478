import { Check, Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * A carrier receipt that arrived before its part was recorded (the usual receipt is written straight onto
 * its part): applied, and marked so, once the part's SMSC id is known.
 */
@Entity({ name: 'delivery_receipts' })
@Check('delivery_receipts_state_check', "state IN ('delivered', 'failed')")
@Index('delivery_receipts_unapplied_idx', ['receivedAt'], { where: 'applied_at IS NULL' })
export class DeliveryReceiptRecord {
  /** The carrier that sent it: an SMSC's ids are unique only on that SMSC. */
  @PrimaryColumn({ name: 'carrier_id', type: 'smallint' })
  carrierId: number;

  @PrimaryColumn({ name: 'smsc_id', type: 'text' })
  smscId: string;

  @Column({ name: 'state', type: 'text' })
  state: 'delivered' | 'failed';

  @Column({ name: 'stat', type: 'text' })
  stat: string;

  @Column({ name: 'err', type: 'text' })
  err: string;

  @Column({ name: 'done_at', type: 'timestamptz' })
  doneAt: Date;

  @Column({ name: 'received_at', type: 'timestamptz', default: () => 'now()' })
  receivedAt: Date;

  @Column({ name: 'applied_at', type: 'timestamptz', nullable: true })
  appliedAt: Date | null;
}
