import { Check, Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';

@Entity({ name: 'inbound_messages' })
@Check('inbound_messages_type_check', "type IN ('inbound', 'unsubscribe')")
// (account_id, received_at DESC, seq DESC): TypeORM indexes have no DESC keys, so only the migration defines its columns.
@Index('inbound_messages_account_idx', { synchronize: false })
// The inbox's threads: one account's replies by the mobile that sent them.
@Index('inbound_messages_account_from_idx', ['accountId', 'fromNumber', 'seq'])
export class InboundMessage {
  @PrimaryColumn({ name: 'id', type: 'uuid' })
  id: string;

  /** Insertion order, so "newest first" is stable among replies received together. */
  @Column({ name: 'seq', type: 'bigint', generated: 'identity', generatedIdentity: 'ALWAYS' })
  seq: number;

  @ForeignKey('Account', { name: 'inbound_messages_account_id_fkey', onDelete: 'CASCADE' })
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

  /** The account's keyword rule the message matched (null for a built-in keyword or none). */
  @Column({ name: 'keyword_rule_id', type: 'bigint', nullable: true })
  keywordRuleId: number | null;

  /** The keyword that matched (a rule's or a built-in one such as START); null when none did. */
  @Column({ name: 'keyword', type: 'text', nullable: true })
  keyword: string | null;

  /** The partition key (monthly partitions), so part of the primary key. */
  @PrimaryColumn({ name: 'received_at', type: 'timestamptz', default: () => 'now()' })
  receivedAt: Date;
}
