import type { Tx } from '../../../src/database/unit-of-work';
import type { CancelledMessage, InboundForWebhook, WebhookEventsService } from '../../../src/webhooks/webhook-events.service';
import { openTx } from './fake-unit-of-work';
import { Journal } from './journal';

/**
 * The webhook events the services request inside their transactions (what becomes of them, URLs and
 * bodies, is WebhookEventsService's own business). Undone on rollback; `failWith` makes the next
 * request fail as a broken insert would.
 */
export class FakeWebhookEventsService implements Pick<WebhookEventsService, 'messagesCancelled' | 'inboundReceived'> {
  readonly cancelled: Array<{ accountId: number; messages: CancelledMessage[]; at: Date; tx: Tx }> = [];
  readonly inbound: Array<{ accountId: number; inbound: InboundForWebhook; tx: Tx }> = [];
  private failure?: unknown;

  constructor(private readonly journal = new Journal()) {}

  failWith(err: unknown): this {
    this.failure = err;
    return this;
  }

  async messagesCancelled(accountId: number, cancelled: readonly CancelledMessage[], at: Date, tx: Tx): Promise<number> {
    const open = openTx('WebhookEventsService.messagesCancelled', tx);
    this.journal.record('webhooks.messagesCancelled');
    if (this.failure !== undefined) throw this.failure;
    const record = { accountId, messages: [...cancelled], at, tx };
    this.cancelled.push(record);
    open.onRollback(() => this.cancelled.splice(this.cancelled.indexOf(record), 1));
    return cancelled.reduce((sum, c) => sum + c.parts, 0);
  }

  async inboundReceived(accountId: number, inbound: InboundForWebhook, tx: Tx): Promise<number> {
    const open = openTx('WebhookEventsService.inboundReceived', tx);
    this.journal.record('webhooks.inboundReceived');
    if (this.failure !== undefined) throw this.failure;
    const record = { accountId, inbound, tx };
    this.inbound.push(record);
    open.onRollback(() => this.inbound.splice(this.inbound.indexOf(record), 1));
    return 1;
  }
}
