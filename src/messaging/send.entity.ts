import { Check, Column, CreateDateColumn, Entity, ForeignKey, Index, PrimaryGeneratedColumn } from 'typeorm';
import { UNDISPATCHED_INDEX_WHERE } from '../delivery/state/dispatch-order';
import { DispatchWatermark } from '../delivery/state/dispatch-watermark.entity';

export type SendKind = 'batch' | 'list' | 'system' | 'reply';

/** One request that created messages: a batch (POST /v1/messages), a list send, a keyword rule's auto-reply, or the platform's own text (system account). */
@Entity({ name: 'sends' })
@Check('sends_kind_check', "kind IN ('batch', 'list', 'system', 'reply')")
@Check('sends_blocked_count_check', 'blocked_count >= 0')
// An account's sends; unique, so a message's send is found by account and send together (the per-statement check).
@Index('sends_account_idx', ['accountId', 'id'], { unique: true })
// Sends with messages no dispatcher has taken yet (the sweeper's and the health check's starting point).
@Index('sends_undispatched_idx', ['id'], { where: UNDISPATCHED_INDEX_WHERE })
// A dashboard form's key: a form submitted twice stores one send.
@Index('sends_form_key_idx', ['accountId', 'formKey'], { unique: true, where: 'form_key IS NOT NULL' })
export class Send {
  @PrimaryGeneratedColumn({ name: 'id', type: 'bigint' })
  id: number;

  @ForeignKey('Account', { name: 'sends_account_id_fkey', onDelete: 'CASCADE' })
  @Column({ name: 'account_id', type: 'integer' })
  accountId: number;

  @ForeignKey('ApiKey', { name: 'sends_api_key_id_fkey', onDelete: 'SET NULL' })
  @Column({ name: 'api_key_id', type: 'integer', nullable: true })
  apiKeyId: number | null;

  @Column({ name: 'kind', type: 'text' })
  kind: SendKind;

  @Column({ name: 'list_id', type: 'bigint', nullable: true })
  listId: number | null;

  @Column({ name: 'ignore_unsubscribes', type: 'boolean', default: false })
  ignoreUnsubscribes: boolean;

  @Column({ name: 'shorten_urls', type: 'boolean', default: false })
  shortenUrls: boolean;

  @Column({ name: 'message_count', type: 'integer', default: 0 })
  messageCount: number;

  @Column({ name: 'total_cost', type: 'bigint', default: 0 })
  totalCost: number;

  /** Recipients blocked when the send was accepted (unsubscribed): they never became messages. */
  @Column({ name: 'blocked_count', type: 'integer', default: 0 })
  blockedCount: number;

  @Column({ name: 'custom_ref', type: 'text', nullable: true })
  customRef: string | null;

  @Column({ name: 'scheduled_for', type: 'timestamptz', nullable: true })
  scheduledFor: Date | null;

  @Column({ name: 'stagger_minutes', type: 'integer', nullable: true })
  staggerMinutes: number | null;

  /** X-Request-Id of the request that created the send, for the worker's log lines. */
  @Column({ name: 'request_id', type: 'text', nullable: true })
  requestId: string | null;

  /** The dashboard user who sent it from the compose page (null for API sends, or once the user is removed). */
  @ForeignKey('User', { name: 'sends_user_id_fkey', onDelete: 'SET NULL' })
  @Column({ name: 'user_id', type: 'integer', nullable: true })
  userId: number | null;

  /** The compose form's key (one per rendered form), unique per account. */
  @Column({ name: 'form_key', type: 'uuid', nullable: true })
  formKey: string | null;

  /** Where dispatch has got to in the send's messages (the claim protocol's, src/delivery/state). */
  @Column(() => DispatchWatermark, { prefix: false })
  dispatch: DispatchWatermark;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
