import { Check, Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * One SMS part of a message as submitted to the carrier, with its own delivery status: what changes while
 * a message is dispatched lives here, not on the message's own row (message-status.ts). The pages are
 * half filled (see the migrations), so a receipt's update of its part finds room on the part's page.
 */
export type PartStatus = 'submitted' | 'delivered' | 'failed' | 'unconfirmed';

@Entity({ name: 'message_parts' })
@Check('message_parts_status_check', "status IN ('submitted', 'delivered', 'failed', 'unconfirmed')")
// Receipts are matched on (carrier, SMSC id): an SMSC's ids are unique only on that SMSC.
@Index('message_parts_smsc_idx', ['carrierId', 'smscId'], { where: 'smsc_id IS NOT NULL' })
// Live parts by submission time, for closing the wait of those whose receipt never came (receipt-waits.repository.ts).
// It names no column a receipt writes, so a receipt's update of its part can stay HOT.
@Index('message_parts_receipt_wait_idx', ['submittedAt'], { where: 'carrier_id >= 0' })
// Simulated receipts not yet applied (the applier clears receipt_due_at). No index names `status`, so a
// receipt's update of its part can be HOT.
@Index('message_parts_receipt_due_idx', ['receiptDueAt'], { where: 'receipt_due_at IS NOT NULL' })
export class MessagePart {
  /**
   * No foreign key to `messages` (one referencing a partitioned table blocks dropping its partitions): a part
   * is written only for a message its dispatcher claimed, lives in its message's month partition (both are
   * partitioned by the message id) and is dropped with it.
   */
  @PrimaryColumn({ name: 'message_id', type: 'uuid' })
  messageId: string;

  @PrimaryColumn({ name: 'part_number', type: 'smallint' })
  partNumber: number;

  /**
   * Its message's account, written with the part (receipts and their webhooks find it without the message);
   * parts go with their account. Checked once per statement, not by a foreign key row by row (the migration
   * MessageKeysPerStatement).
   */
  @Column({ name: 'account_id', type: 'integer' })
  accountId: number;

  @Column({ name: 'total_parts', type: 'smallint' })
  totalParts: number;

  /**
   * The carrier that took (or refused) the part: 0 the SMPP_* environment carrier, -1 the simulator, 1 and up
   * the carriers table's rows (carrier-ids.ts). No foreign key: a removed carrier's history keeps its id.
   */
  @Column({ name: 'carrier_id', type: 'smallint' })
  carrierId: number;

  /** The SMSC's message id from submit_sm_resp; receipts are matched on it and the carrier. */
  @Column({ name: 'smsc_id', type: 'text', nullable: true })
  smscId: string | null;

  /**
   * submitted until its receipt comes (delivered, failed); unconfirmed when the wait for a receipt closed
   * without one (RECEIPT_WAIT_MS after submission). A receipt that comes later still applies.
   */
  @Column({ name: 'status', type: 'text' })
  status: PartStatus;

  @Column({ name: 'error', type: 'text', nullable: true })
  error: string | null;

  /** The SMSC's command_status when it refused the part for good (shown as carrier_error); null otherwise. */
  @Column({ name: 'error_code', type: 'integer', nullable: true })
  errorCode: number | null;

  @Column({ name: 'submitted_at', type: 'timestamptz', default: () => 'now()' })
  submittedAt: Date;

  /** When the part was settled: the receipt's done date, or when a simulated receipt was applied. */
  @Column({ name: 'receipt_at', type: 'timestamptz', nullable: true })
  receiptAt: Date | null;

  /** The carrier receipt's stat and err, written straight onto the part it settles. */
  @Column({ name: 'receipt_stat', type: 'text', nullable: true })
  receiptStat: string | null;

  @Column({ name: 'receipt_err', type: 'text', nullable: true })
  receiptErr: string | null;

  /** Simulated carrier (test accounts, development): when its receipt is due; cleared once applied. */
  @Column({ name: 'receipt_due_at', type: 'timestamptz', nullable: true })
  receiptDueAt: Date | null;
}
