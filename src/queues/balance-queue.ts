import { InjectQueue } from '@nestjs/bull';
import { Injectable, Logger } from '@nestjs/common';
import type { Queue } from 'bull';
import { addJobOrLeaveToSweeper } from './add-job';
import { consume } from './queue-depth';

export const BALANCE_QUEUE = 'balance';
const JOB_CROSSING = 'crossing';

interface CrossingJob {
  crossingId: number;
}

/**
 * Balance crossings to handle (auto-recharge, the low-balance warning). The job id is the crossing's,
 * so enqueueing one crossing twice is one job; the crossing itself is a PostgreSQL row, so a lost job
 * is found by the periodic sweep.
 */
@Injectable()
export class BalanceQueue {
  private readonly logger = new Logger(BalanceQueue.name);

  constructor(@InjectQueue(BALANCE_QUEUE) private readonly queue: Queue) {}

  async crossed(crossingIds: readonly number[]): Promise<void> {
    await Promise.all(
      crossingIds.map((crossingId) => addJobOrLeaveToSweeper(this.queue, this.logger, JOB_CROSSING, { crossingId } satisfies CrossingJob, { jobId: `crossing-${crossingId}` })),
    );
  }

  consume(concurrency: number, handle: (crossingId: number) => Promise<unknown>): void {
    consume<CrossingJob>(
      this.queue,
      JOB_CROSSING,
      concurrency,
      (job) => handle(job.crossingId),
      (err) => this.logger.error({ msg: 'balance processor stopped', err: err.message }),
    );
  }
}
