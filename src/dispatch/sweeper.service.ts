import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { DispatchQueue } from './dispatch-queue';
import { DispatchRepository } from './dispatch.repository';
import { DeliveryMetrics } from './delivery-metrics';
import { OnPartsChanged } from './dispatch.repository';
import { WebhookEventsService } from '../webhooks/webhook-events.service';

export const SIMULATED_FAIL_SUFFIX = '000';

/**
 * The safety net behind the queue, driven by PostgreSQL: re-enqueues sends with due messages that no
 * job took (a crash between commit and enqueue, a flushed Redis), takes back claims of dead
 * dispatchers, applies receipts that arrived before their parts were recorded, and applies due
 * simulated receipts. Every step is idempotent, so any number of workers may sweep at once.
 */
@Injectable()
export class SweeperService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(SweeperService.name);
  private timer?: NodeJS.Timeout;
  private sweeping?: Promise<void>;

  constructor(
    private readonly repo: DispatchRepository,
    private readonly queue: DispatchQueue,
    private readonly metrics: DeliveryMetrics,
    private readonly webhooks: WebhookEventsService,
    private readonly config: AppConfig,
  ) {}

  private readonly recordEvents: OnPartsChanged = async (changes, m) => {
    await this.webhooks.partsChanged(changes, m);
  };

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => {
      this.sweeping ??= this.sweep()
        .catch((err: Error) => this.logger.warn({ msg: 'sweep failed', err: err.message }))
        .finally(() => (this.sweeping = undefined));
    }, this.config.sweepIntervalMs);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.sweeping;
  }

  async sweep(): Promise<void> {
    for (const sendId of await this.repo.releaseStaleClaims(this.config.claimTimeoutMs)) {
      this.logger.warn({ msg: 'took back stale dispatch claims', sendId });
      await this.queue.enqueueSend(sendId, new Date());
    }
    const orphans = await this.repo.sendsWithUnclaimedDue(this.config.sweepIntervalMs);
    if (orphans.length) this.logger.warn({ msg: 're-enqueueing due messages without a job', sends: orphans.length });
    for (const { send_id, due } of orphans) await this.queue.enqueueSend(send_id, due);
    const late = await this.repo.applyStoredReceipts('all-unapplied', undefined, this.recordEvents);
    this.metrics.partsSettled(late);
    await this.webhooks.deliverSoon(late.length);
    await this.applySimulatedReceipts();
  }

  async applySimulatedReceipts(): Promise<void> {
    for (;;) {
      const changes = await this.repo.applyDueSimulatedReceipts(SIMULATED_FAIL_SUFFIX, this.recordEvents);
      if (changes.length === 0) return;
      this.metrics.partsSettled(changes);
      await this.webhooks.deliverSoon(changes.length);
    }
  }
}
