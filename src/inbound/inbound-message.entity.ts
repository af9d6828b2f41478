import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity({ name: 'inbound_messages' })
export class InboundMessage {
  @PrimaryColumn({ name: 'id', type: 'uuid' })
  id: string;

  @Column({ name: 'account_id', type: 'integer' })
  accountId: number;

  /** The mobile that replied. */
  @Column({ name: 'from_number', type: 'text' })
  fromNumber: string;

  /** The account's number that received it. */
  @Column({ name: 'to_number', type: 'text' })
  toNumber: string;

  @Column({ name: 'body', type: 'text' })
  body: string;

  @Column({ name: 'type', type: 'text' })
  type: 'inbound' | 'unsubscribe';

  @Column({ name: 'original_message_id', type: 'uuid', nullable: true })
  originalMessageId: string | null;

  @Column({ name: 'original_custom_ref', type: 'text', nullable: true })
  originalCustomRef: string | null;

  @Column({ name: 'received_at', type: 'timestamptz' })
  receivedAt: Date;
}
