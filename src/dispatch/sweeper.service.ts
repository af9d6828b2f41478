import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { DispatchQueue } from '../queues/dispatch-queue';
import { DispatchStatusService } from '../health/dispatch-status.service';
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
    private readonly status: DispatchStatusService,
    private readonly config: AppConfig,
  ) {}

  /** Writes the status webhooks of changed parts in their transaction and counts them, to wake delivery after. */
  private eventRecorder(): { record: OnPartsChanged; created: () => number } {
    let created = 0;
    return {
      record: async (changes, m) => {
        created += await this.webhooks.partsChanged(changes, m);
      },
      created: () => created,
    };
  }

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
    const events = this.eventRecorder();
    this.metrics.partsSettled(await this.repo.applyStoredReceipts('all-unapplied', undefined, events.record));
    await this.webhooks.deliverSoon(events.created());
    await this.applySimulatedReceipts();
    const oldestDueSeconds = await this.status.oldestDueSeconds();
    if (this.status.isStalled(oldestDueSeconds)) this.logger.warn({ msg: 'dispatch is not draining', oldestDueSeconds });
  }

  async applySimulatedReceipts(): Promise<void> {
    for (;;) {
      const events = this.eventRecorder();
      const changes = await this.repo.applyDueSimulatedReceipts(SIMULATED_FAIL_SUFFIX, events.record);
      if (changes.length === 0) return;
      this.metrics.partsSettled(changes);
      await this.webhooks.deliverSoon(events.created());
    }
  }
}
