import type { Logger } from '@nestjs/common';
import type { JobOptions, Queue } from 'bull';
import { RepeatedLines } from '../common/logging/repeated-lines';

const ENQUEUE_TIMEOUT_MS = 2000;
/** Per queue's logger: while Redis is away every enqueue fails alike, written once a second with a count. */
const linesOf = new WeakMap<Logger, RepeatedLines>();

function lines(logger: Logger): RepeatedLines {
  let repeated = linesOf.get(logger);
  if (!repeated) linesOf.set(logger, (repeated = new RepeatedLines((msg, meta) => logger.warn({ msg, ...meta }))));
  return repeated;
}

/**
 * Adds a job without ever failing or stalling the caller: work whose job cannot be added now (Redis
 * down or slow) is found again in PostgreSQL by a sweeper, so a lost enqueue only costs time.
 */
export async function addJobOrLeaveToSweeper(queue: Queue, logger: Logger, name: string, data: object, options: JobOptions & { jobId: string }): Promise<void> {
  const timeout = new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), ENQUEUE_TIMEOUT_MS).unref());
  try {
    const outcome = await Promise.race([queue.add(name, data, { removeOnComplete: true, removeOnFail: true, ...options }), timeout]);
    if (outcome === 'timeout') lines(logger).note('enqueue timed out; the sweeper will pick the work up', { jobId: options.jobId });
  } catch (err) {
    lines(logger).note('enqueue failed; the sweeper will pick the work up', { jobId: options.jobId, err: (err as Error).message });
  }
}
