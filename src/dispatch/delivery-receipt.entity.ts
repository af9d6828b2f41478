import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A carrier receipt as received; applied to its part once the part's SMSC id is known. */
@Entity({ name: 'delivery_receipts' })
export class DeliveryReceiptRecord {
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

  @Column({ name: 'received_at', type: 'timestamptz' })
  receivedAt: Date;

  @Column({ name: 'applied_at', type: 'timestamptz', nullable: true })
  appliedAt: Date | null;
}
