import { Check, Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * One row: how far, in submission time, the wait for receipts has been closed. Live parts submitted at or
 * before `closed_through` have been looked at once their wait was over (receipt-waits.repository.ts), so
 * each closing step reads only the parts submitted since the last.
 */
@Entity({ name: 'receipt_wait_watermark' })
@Check('receipt_wait_watermark_id_check', 'id = 1')
export class ReceiptWaitWatermark {
  @PrimaryColumn({ name: 'id', type: 'smallint' })
  id: number;

  @Column({ name: 'closed_through', type: 'timestamptz' })
  closedThrough: Date;
}
