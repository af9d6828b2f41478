import type { Queue } from 'bull';

export interface QueueDepth {
  waiting: number;
  active: number;
  delayed: number;
  failed: number;
}

export async function queueDepth(queue: Queue): Promise<QueueDepth> {
  const counts = await queue.getJobCounts();
  return { waiting: counts.waiting, active: counts.active, delayed: counts.delayed, failed: counts.failed };
}

/** Registers a consumer; a processor that stops (Redis gone for good) is logged, never thrown into the caller. */
export function consume(queue: Queue, name: string, concurrency: number, handler: () => Promise<unknown>, onStopped: (err: Error) => void): void;
export function consume<T>(queue: Queue, name: string, concurrency: number, handler: (data: T) => Promise<unknown>, onStopped: (err: Error) => void): void;
export function consume<T>(queue: Queue, name: string, concurrency: number, handler: (data: T) => Promise<unknown>, onStopped: (err: Error) => void): void {
  queue.process(name, concurrency, (job) => handler(job.data as T)).catch(onStopped);
}
