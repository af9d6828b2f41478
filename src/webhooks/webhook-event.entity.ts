import { Check, Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';
import { dayPrefixedIdDefault } from '../database/partitioning/partition-bounds';

/** One webhook to deliver; its body bytes are fixed at creation. */
@Entity({ name: 'webhook_events' })
@Check('webhook_events_kind_check', "kind IN ('status', 'inbound')")
@Check('webhook_events_state_check', "state IN ('pending', 'delivered', 'failed', 'discarded')")
@Index('webhook_events_due_idx', ['nextAttemptAt'], { where: "state = 'pending'" })
export class WebhookEvent {
  /** Day-prefixed (its UTC day above a sequence's low 32 bits): the table is partitioned by day on it. */
  @PrimaryColumn({ name: 'id', type: 'bigint', default: () => dayPrefixedIdDefault('webhook_events_id_seq') })
  id: number;

  /** Goes with its account; checked once per statement, not by a foreign key row by row (WebhookKeysPerStatement). */
  @Column({ name: 'account_id', type: 'integer' })
  accountId: number;

  @Column({ name: 'kind', type: 'text' })
  kind: 'status' | 'inbound';

  @Column({ name: 'body', type: 'text' })
  body: string;

  @Column({ name: 'state', type: 'text', default: 'pending' })
  state: 'pending' | 'delivered' | 'failed' | 'discarded';

  @Column({ name: 'attempts', type: 'integer', default: 0 })
  attempts: number;

  @Column({ name: 'next_attempt_at', type: 'timestamptz', default: () => 'now()' })
  nextAttemptAt: Date;

  @Column({ name: 'locked_until', type: 'timestamptz', nullable: true })
  lockedUntil: Date | null;

  /** The deliverer whose lease this is (WebhookLeases.holder): only it renews the lease and records the attempt. */
  @Column({ name: 'leased_by', type: 'uuid', nullable: true })
  leasedBy: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'finished_at', type: 'timestamptz', nullable: true })
  finishedAt: Date | null;
}
