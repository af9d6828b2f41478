import type { DispatchQueue } from '../../../src/queues/dispatch-queue';
import { Journal } from './journal';

/**
 * DispatchQueue.sendCommitted: records what would be enqueued. The real one never rejects (a failed
 * enqueue is left to the sweeper), so this one never does either; `stall()` makes it never settle, as
 * when Redis is slow.
 */
export class FakeDispatchQueue implements Pick<DispatchQueue, 'sendCommitted'> {
  readonly enqueued: Array<{ sendId: number; dueTimes: Date[] }> = [];
  private stalled = false;

  constructor(private readonly journal = new Journal()) {}

  stall(): this {
    this.stalled = true;
    return this;
  }

  async sendCommitted(sendId: number, dueTimes: Iterable<Date>): Promise<void> {
    this.journal.record('dispatch.sendCommitted');
    this.enqueued.push({ sendId, dueTimes: [...dueTimes] });
    if (this.stalled) await new Promise<never>(() => undefined);
  }
}
