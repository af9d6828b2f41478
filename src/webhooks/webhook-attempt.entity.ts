import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** One delivery attempt of a webhook event, as GET /v1/webhook-deliveries lists it. */
@Entity({ name: 'webhook_attempts' })
export class WebhookAttempt {
  @PrimaryGeneratedColumn({ name: 'id', type: 'bigint' })
  id: number;

  @Column({ name: 'event_id', type: 'bigint' })
  eventId: number;

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

  @Column({ name: 'error', type: 'text' })
  error: string;

  @Column({ name: 'duration_ms', type: 'integer' })
  durationMs: number;

  @Column({ name: 'delivered', type: 'boolean' })
  delivered: boolean;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
