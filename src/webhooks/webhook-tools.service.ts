import { Injectable } from '@nestjs/common';
import { failure } from '../common/errors/error-catalogue';
import { formatUtc, parseUtcTimestamp } from '../common/time/format';
import { Clock } from '../common/time/clock';
import { UnitOfWork } from '../database/unit-of-work';
import { WebhookQueue } from '../queues/webhook-queue';
import { WebhookKind, WebhooksRepository } from './webhooks.repository';

const KINDS: readonly WebhookKind[] = ['status', 'inbound'];
const TIMESTAMP = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

/** A sample of each kind, shaped like the real thing and marked `test`, so a receiver can be tried end to end. */
export function testEventBody(kind: WebhookKind, now: Date): string {
  const common = { to: '61400000000', sender: 'TestSender', received_at: formatUtc(now), test: true };
  return JSON.stringify(
    kind === 'status'
      ? { ...common, message: 'Test status webhook', custom_ref: 'test', status: 'delivered', message_id: '00000000-0000-4000-8000-000000000000', part_number: 1, total_parts: 1 }
      : { ...common, message: 'Test inbound webhook', type: 'inbound', original_message_id: '', original_custom_ref: '' },
  );
}

/**
 * The tools around delivery: a test event to the account's URL (sent, signed, retried and logged like any
 * other), and redelivery of one finished undelivered event or of every failed event of a period.
 */
@Injectable()
export class WebhookToolsService {
  constructor(
    private readonly repo: WebhooksRepository,
    private readonly queue: WebhookQueue,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async sendTestEvent(accountId: number, event: string | undefined): Promise<{ status: 'complete'; event_id: number }> {
    const kind = (event || 'status') as WebhookKind;
    if (!KINDS.includes(kind)) throw failure('invalidEventKind');
    const settings = await this.repo.settings(accountId);
    if (!settings) throw failure('accountNotFound', accountId);
    if (settings[kind] === '') throw failure('noWebhookUrl', kind);
    const id = await this.uow.run(async (tx) => {
      tx.afterCommit(() => this.queue.wake());
      return this.repo.insertEvent({ accountId, kind, body: testEventBody(kind, this.clock.now()) }, tx);
    });
    return { status: 'complete', event_id: id };
  }

  /** One event by id, or every failed event created in [from, to) (UTC timestamps). */
  async redeliver(accountId: number, input: { event_id?: number; from?: string; to?: string }): Promise<{ status: 'complete'; redelivered: number }> {
    const count = await this.uow.run(async (tx) => {
      tx.afterCommit(() => this.queue.wake());
      if (input.event_id !== undefined) {
        const done = await this.repo.redeliverEvent(accountId, input.event_id, tx);
        if (!done) throw failure('webhookEventNotFound');
        if (!done.redelivered) throw failure('webhookEventNotRedeliverable');
        return 1;
      }
      const from = timestamp('from', input.from);
      const to = timestamp('to', input.to);
      if (from >= to) throw failure('redeliveryPeriodBackwards');
      return this.repo.redeliverFailed(accountId, from, to, tx);
    });
    return { status: 'complete', redelivered: count };
  }
}

function timestamp(field: string, text: string | undefined): Date {
  if (text === undefined || text === '') throw failure('required', field);
  const at = TIMESTAMP.test(text) ? parseUtcTimestamp(text) : new Date(NaN);
  if (Number.isNaN(at.getTime()) || formatUtc(at) !== text) throw failure('invalidRedeliveryTime', field);
  return at;
}
