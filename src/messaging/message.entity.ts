import { Check, Column, CreateDateColumn, Entity, Index, PrimaryColumn, UpdateDateColumn } from 'typeorm';

export const MESSAGE_STATUSES = ['pending', 'scheduled', 'sent', 'delivered', 'failed', 'cancelled'] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

@Entity({ name: 'messages' })
@Check('messages_status_check', "status IN ('pending', 'scheduled', 'sent', 'delivered', 'failed', 'cancelled')")
@Check('messages_encoding_check', "encoding IN ('gsm7', 'ucs2')")
@Check('messages_parts_check', 'parts BETWEEN 1 AND 99')
@Check('messages_cost_check', 'cost >= 0')
// A send's messages in dispatch order: claims walk it after the send's watermark (DispatchWatermark),
// and every per-send lookup (cancel by send, counts, the cascade from a send) uses it. Once accepted, a
// message's row is not written on its way to the carrier and back (its parts are), so its indexes are
// entered once.
@Index('messages_send_order_idx', ['sendId', 'dispatchAt', 'seq'])
// TypeORM indexes have no DESC keys, so these are declared by name only and the migration defines them:
// messages_account_created_idx (account_id, created_at DESC, seq DESC): history, newest first;
// messages_account_custom_ref_idx (account_id, custom_ref, created_at DESC, seq DESC) WHERE custom_ref IS NOT NULL;
// messages_conversation_idx (sender, to_number, created_at DESC): inbound correlation to the latest message.
@Index('messages_account_created_idx', { synchronize: false })
@Index('messages_account_custom_ref_idx', { synchronize: false })
@Index('messages_conversation_idx', { synchronize: false })
// A message belongs to its send's account, and goes with its send (and so with its account). That is
// checked once per statement, not by a foreign key row by row (the migration MessageKeysPerStatement).
export class Message {
  @PrimaryColumn({ name: 'id', type: 'uuid' })
  id: string;

  /** Insertion order, so "newest first" is stable within one batch. */
  @Column({ name: 'seq', type: 'bigint', generated: 'identity', generatedIdentity: 'ALWAYS' })
  seq: number;

  @Column({ name: 'account_id', type: 'integer' })
  accountId: number;

  @Column({ name: 'send_id', type: 'bigint' })
  sendId: number;

  @Column({ name: 'to_number', type: 'text' })
  toNumber: string;

  @Column({ name: 'sender', type: 'text' })
  sender: string;

  @Column({ name: 'sender_type', type: 'text' })
  senderType: string;

  /** The text as rendered (placeholders and {optout} applied); what is sent and charged. */
  @Column({ name: 'body', type: 'text' })
  body: string;

  @Column({ name: 'custom_ref', type: 'text', nullable: true })
  customRef: string | null;

  /**
   * Pending, scheduled or cancelled: the status before dispatch, the only one written here. Once a part
   * is recorded, the message's status is its parts' (sent, delivered, failed; message-status.ts).
   */
  @Column({ name: 'status', type: 'text' })
  status: MessageStatus;

  @Column({ name: 'encoding', type: 'text' })
  encoding: 'gsm7' | 'ucs2';

  @Column({ name: 'parts', type: 'smallint' })
  parts: number;

  /** Hundredths of a credit. */
  @Column({ name: 'cost', type: 'bigint' })
  cost: number;

  @Column({ name: 'is_test', type: 'boolean' })
  isTest: boolean;

  /** The time the caller scheduled (or the staggered plan put it at); null when sent at once. */
  @Column({ name: 'scheduled_for', type: 'timestamptz', nullable: true })
  scheduledFor: Date | null;

  /** When dispatch may take it. */
  @Column({ name: 'dispatch_at', type: 'timestamptz' })
  dispatchAt: Date;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
