import { Column, CreateDateColumn, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';

export const MESSAGE_STATUSES = ['pending', 'scheduled', 'sent', 'delivered', 'failed', 'cancelled'] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

@Entity({ name: 'messages' })
export class Message {
  @PrimaryColumn({ name: 'id', type: 'uuid' })
  id: string;

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
