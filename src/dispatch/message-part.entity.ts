import { Column, Entity, PrimaryColumn } from 'typeorm';

/** One SMS part of a message as submitted to the carrier, with its own delivery status. */
@Entity({ name: 'message_parts' })
export class MessagePart {
  @PrimaryColumn({ name: 'message_id', type: 'uuid' })
  messageId: string;

  @PrimaryColumn({ name: 'part_number', type: 'smallint' })
  partNumber: number;

  @Column({ name: 'total_parts', type: 'smallint' })
  totalParts: number;

  /** The SMSC's message id from submit_sm_resp; receipts are matched on it. */
  @Column({ name: 'smsc_id', type: 'text', nullable: true })
  smscId: string | null;

  @Column({ name: 'status', type: 'text' })
  status: 'submitted' | 'delivered' | 'failed';

  @Column({ name: 'error', type: 'text', nullable: true })
  error: string | null;

  @Column({ name: 'submitted_at', type: 'timestamptz' })
  submittedAt: Date;

  @Column({ name: 'receipt_at', type: 'timestamptz', nullable: true })
  receiptAt: Date | null;

  @Column({ name: 'receipt_due_at', type: 'timestamptz', nullable: true })
  receiptDueAt: Date | null;
}
