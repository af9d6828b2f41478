import { InjectQueue } from '@nestjs/bull';
import { Injectable, Logger } from '@nestjs/common';
import type { Queue } from 'bull';
import { Clock } from '../common/time/clock';
import { addJobOrLeaveToSweeper } from './add-job';
import { consume, QueueDepth, queueDepth } from './queue-depth';

export const DISPATCH_QUEUE = 'dispatch';
const JOB_DISPATCH_SEND = 'dispatch-send';
const JOB_SIMULATED_RECEIPTS = 'simulated-receipts';

interface DispatchSendJob {
  sendId: number;
}

/**
 * The dispatch queue (rule 7: Bull stays behind this wrapper). Jobs carry deterministic ids, so
 * enqueueing the same due second of a send twice is one job; anything lost between commit and enqueue,
 * or in a flushed Redis, is found again by the sweeper from PostgreSQL.
 */
@Injectable()
export class DispatchQueue {
  private readonly logger = new Logger(DispatchQueue.name);

  constructor(
    @InjectQueue(DISPATCH_QUEUE) private readonly queue: Queue,
    private readonly clock: Clock,
  ) {}

  /** After a send commits: one job per distinct due second (immediate, scheduled, staggered). */
  async sendCommitted(sendId: number, dueTimes: Iterable<Date>): Promise<void> {
    const seconds = new Set<number>();
    for (const due of dueTimes) seconds.add(Math.floor(due.getTime() / 1000));
    await Promise.all([...seconds].map((second) => this.enqueueSend(sendId, new Date(second * 1000))));
  }

  async enqueueSend(sendId: number, due: Date): Promise<void> {
    const second = Math.floor(due.getTime() / 1000);
    await this.add(JOB_DISPATCH_SEND, { sendId } satisfies DispatchSendJob, `send-${sendId}-${second}`, second * 1000);
  }

  /** Wakes the simulated-receipt applier when receipts fall due. */
  async simulatedReceiptsDue(at: Date): Promise<void> {
    const second = Math.ceil(at.getTime() / 1000);
    await this.add(JOB_SIMULATED_RECEIPTS, {}, `simrcpt-${second}`, second * 1000);
  }

  depth(): Promise<QueueDepth> {
    return queueDepth(this.queue);
  }

  /** Worker side: handlers for the two job kinds. */
  consume(handlers: { dispatchSend: (sendId: number) => Promise<unknown>; concurrency: number; simulatedReceipts: () => Promise<unknown> }): void {
    const stopped = (what: string) => (err: Error) => this.logger.error({ msg: `${what} processor stopped`, err: err.message });
    consume<DispatchSendJob>(this.queue, JOB_DISPATCH_SEND, handlers.concurrency, (job) => handlers.dispatchSend(job.sendId), stopped('dispatch'));
    consume(this.queue, JOB_SIMULATED_RECEIPTS, 1, handlers.simulatedReceipts, stopped('simulated receipt'));
  }

  private async add(name: string, data: object, jobId: string, runAtMs: number): Promise<void> {
    const delay = Math.max(0, runAtMs - this.clock.now().getTime());
    await addJobOrLeaveToSweeper(this.queue, this.logger, name, data, { jobId, delay, attempts: 5, backoff: { type: 'exponential', delay: 1000 } });
  }
}
