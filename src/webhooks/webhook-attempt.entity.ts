import { Column, CreateDateColumn, Entity, Index, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm';

/**
 * One delivery attempt of a webhook event, as GET /v1/webhook-deliveries lists it. Partitioned by its
 * event's day-prefixed id, so it is dropped with its event's day; its key includes the event's id for that.
 */
@Entity({ name: 'webhook_attempts' })
// (account_id, id DESC): TypeORM indexes have no DESC keys, so only the migration defines its columns.
@Index('webhook_attempts_account_idx', { synchronize: false })
// The same keys for failed attempts only (partial): the dashboard's failed-deliveries filter.
@Index('webhook_attempts_account_failed_idx', { synchronize: false })
// Each attempt number of an event once (it also serves the reads of one event's attempts).
@Index('webhook_attempts_event_attempt_key', ['eventId', 'attempt'], { unique: true })
export class WebhookAttempt {
  @PrimaryGeneratedColumn({ name: 'id', type: 'bigint' })
  id: number;

  @PrimaryColumn({ name: 'event_id', type: 'bigint' })
  eventId: number;

  /** Goes with its account; checked once per statement, not by a foreign key row by row (WebhookKeysPerStatement). */
  @Column({ name: 'account_id', type: 'integer' })
  accountId: number;

  @Column({ name: 'kind', type: 'text' })
  kind: 'status' | 'inbound';

  @Column({ name: 'url', type: 'text' })
  url: string;

  @Column({ name: 'attempt', type: 'integer' })
  attempt: number;

  @Column({ name: 'response_status', type: 'integer', nullable: true })
  responseStatus: number | null;

  @Column({ name: 'error', type: 'text', default: '' })
  error: string;

  @Column({ name: 'duration_ms', type: 'integer' })
  durationMs: number;

  @Column({ name: 'delivered', type: 'boolean' })
  delivered: boolean;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
