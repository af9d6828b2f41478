import { randomUUID } from 'node:crypto';
import { InjectQueue } from '@nestjs/bull';
import { Injectable, Logger } from '@nestjs/common';
import type { Queue } from 'bull';
import { Clock } from '../common/time/clock';
import { addJobOrLeaveToSweeper } from './add-job';
import { consume } from './queue-depth';

export const WEBHOOK_QUEUE = 'webhooks';
const JOB_DELIVER_DUE = 'deliver-due';

/**
 * Webhook delivery wake-ups. The events themselves live in PostgreSQL and a deliverer leases whatever
 * is due, so a lost job costs at most a sweep interval, never an event.
 */
@Injectable()
export class WebhookQueue {
  private readonly logger = new Logger(WebhookQueue.name);

  constructor(
    @InjectQueue(WEBHOOK_QUEUE) private readonly queue: Queue,
    private readonly clock: Clock,
  ) {}

  /** Events were just committed: deliver now. */
  async wake(): Promise<void> {
    await this.add(`wh-now-${randomUUID()}`, 0);
  }

  /** A retry falls due then (one job per second, however many events share it). */
  async wakeAt(at: Date): Promise<void> {
    const second = Math.ceil(at.getTime() / 1000);
    await this.add(`wh-at-${second}`, second * 1000 - this.clock.now().getTime());
  }

  /** Worker side: every wake-up runs one delivery pass. */
  consume(concurrency: number, deliverDue: () => Promise<unknown>): void {
    consume(this.queue, JOB_DELIVER_DUE, concurrency, deliverDue, (err) => this.logger.error({ msg: 'webhook processor stopped', err: err.message }));
  }

  private async add(jobId: string, delay: number): Promise<void> {
    await addJobOrLeaveToSweeper(this.queue, this.logger, JOB_DELIVER_DUE, {}, { jobId, delay: Math.max(0, delay) });
  }
}
