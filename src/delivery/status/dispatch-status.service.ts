import { Injectable } from '@nestjs/common';
import { MetricsRegistry } from '../../metrics/metrics-registry';
import { DispatchQueue } from '../../queues/dispatch-queue';
import { QueueDepth } from '../../queues/queue-depth';
import { BacklogRepository } from '../state/backlog.repository';

/** Due work unclaimed longer than this means dispatch has stopped draining (health and the sweeper's log). */
export const DISPATCH_STALLED_AFTER_SECONDS = 60;

export interface DispatchStatus {
  queue: QueueDepth;
  oldestDueSeconds: number;
}

/** Whether dispatch keeps up: queue depth and the age of the oldest due message nobody has claimed. */
@Injectable()
export class DispatchStatusService {
  constructor(
    private readonly queue: DispatchQueue,
    private readonly backlog: BacklogRepository,
    registry: MetricsRegistry,
  ) {
    registry.gauge('sms_dispatch_queue_jobs', 'Dispatch jobs by state', ['state'], async function () {
      const depth = await queue.depth();
      for (const [state, count] of Object.entries(depth)) this.set({ state }, count);
    });
    registry.gauge('sms_dispatch_oldest_due_seconds', 'Age of the oldest due message no dispatcher has taken', [], async function () {
      this.set((await backlog.oldestUnclaimedDueAgeMs()) / 1000);
    });
  }

  async snapshot(): Promise<DispatchStatus> {
    const [queue, oldestDueMs] = await Promise.all([this.queue.depth(), this.backlog.oldestUnclaimedDueAgeMs()]);
    return { queue, oldestDueSeconds: Math.round(oldestDueMs / 100) / 10 };
  }

  async oldestDueSeconds(): Promise<number> {
    return Math.round((await this.backlog.oldestUnclaimedDueAgeMs()) / 1000);
  }

  isStalled(oldestDueSeconds: number): boolean {
    return oldestDueSeconds > DISPATCH_STALLED_AFTER_SECONDS;
  }
}
