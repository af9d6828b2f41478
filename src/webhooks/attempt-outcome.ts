import type { SendResult } from './webhook-attempt-handler';
import type { AttemptOutcome, ClaimedEvent } from './webhook-delivery.repository';

/** The retry schedule (WEBHOOK_MAX_RETRIES, WEBHOOK_RETRY_BASE_MS, WEBHOOK_RETRY_MAX_MS). */
export interface RetrySchedule {
  maxRetries: number;
  baseMs: number;
  maxMs: number;
}

/** Delay before retry n (1-based): exponential from the base, capped, with ±20% jitter so retries spread out. */
export function retryDelayMs(retry: number, baseMs: number, maxMs: number, random: () => number = Math.random): number {
  const exponential = Math.min(baseMs * 2 ** (retry - 1), maxMs);
  return Math.round(exponential * (0.8 + 0.4 * random()));
}

export function outcomeOf(
  event: ClaimedEvent,
  result: AttemptOutcome['result'],
  responseStatus: number | null,
  error: string,
  durationMs: number,
  nextAttemptAt: Date | null,
): AttemptOutcome {
  return { event, result, responseStatus, error, durationMs, nextAttemptAt };
}

/**
 * What an attempt's answer means for its event. `sent` null: the attempt never started (its lease was not
 * certain, or the deliverer is stopping), so it is tried again now without counting. A failure is retried on
 * the schedule until the retries are used up. `now` is asked only when a time is needed (a delivery needs none).
 */
export function outcomeOfAnswer(event: ClaimedEvent, sent: SendResult | null, now: () => Date, schedule: RetrySchedule, random?: () => number): AttemptOutcome {
  if (!sent) return outcomeOf(event, 'deferred', null, '', 0, now());
  if (sent.ok) return outcomeOf(event, 'delivered', sent.status, '', sent.durationMs, null);
  const retry = event.attempts + 1; // the retry this failure leads to
  const next = retry <= schedule.maxRetries ? new Date(now().getTime() + retryDelayMs(retry, schedule.baseMs, schedule.maxMs, random)) : null;
  return outcomeOf(event, 'failed', sent.status, sent.error, sent.durationMs, next);
}

/** How many outcomes of each result a batch holds: one counter increment per result, not per outcome. */
export function countByResult(batch: readonly AttemptOutcome[]): Map<AttemptOutcome['result'], number> {
  const counts = new Map<AttemptOutcome['result'], number>();
  for (const o of batch) counts.set(o.result, (counts.get(o.result) ?? 0) + 1);
  return counts;
}

/** When the earliest retry a batch's outcomes schedule falls due (null for none): the one wake-up they need. */
export function earliestRetry(batch: readonly AttemptOutcome[]): Date | null {
  let earliest = Infinity;
  for (const o of batch) if (o.result !== 'delivered' && o.result !== 'discarded' && o.nextAttemptAt) earliest = Math.min(earliest, o.nextAttemptAt.getTime());
  return earliest === Infinity ? null : new Date(earliest);
}
