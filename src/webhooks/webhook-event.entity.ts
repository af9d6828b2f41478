import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** One webhook to deliver; its body bytes are fixed at creation. */
@Entity({ name: 'webhook_events' })
export class WebhookEvent {
  @PrimaryGeneratedColumn({ name: 'id', type: 'bigint' })
  id: number;

  @Column({ name: 'account_id', type: 'integer' })
  accountId: number;

  @Column({ name: 'kind', type: 'text' })
  kind: 'status' | 'inbound';

  @Column({ name: 'body', type: 'text' })
  body: string;

  @Column({ name: 'state', type: 'text' })
  state: 'pending' | 'delivered' | 'failed' | 'discarded';

  @Column({ name: 'attempts', type: 'integer' })
  attempts: number;

  @Column({ name: 'next_attempt_at', type: 'timestamptz' })
  nextAttemptAt: Date;

  @Column({ name: 'locked_until', type: 'timestamptz', nullable: true })
  lockedUntil: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'finished_at', type: 'timestamptz', nullable: true })
  finishedAt: Date | null;
}
