import { countByResult, earliestRetry, outcomeOf, outcomeOfAnswer, RetrySchedule } from '../../../src/webhooks/attempt-outcome';
import type { ClaimedEvent } from '../../../src/webhooks/webhook-delivery.repository';

describe(outcomeOfAnswer.name, () => {
  const schedule: RetrySchedule = { maxRetries: 3, baseMs: 1000, maxMs: 60_000 };
  const at = new Date('2026-12-03T10:00:00.000Z');
  const event = (attempts: number): ClaimedEvent => ({ id: 7, account_id: 1, kind: 'status', body: '{}', attempts, url: 'https://example.com/h', secret: null });
  const middle = () => 0.5;

  it('a 2xx: delivered, nothing more due, no clock read', () => {
    const now = jest.fn(() => at);
    expect(outcomeOfAnswer(event(0), { ok: true, status: 204, error: '', durationMs: 12.5 }, now, schedule)).toEqual({
      event: event(0),
      result: 'delivered',
      responseStatus: 204,
      error: '',
      durationMs: 12.5,
      nextAttemptAt: null,
    });
    expect(now).not.toHaveBeenCalled();
  });

  it('a failure with retries left: failed, the next attempt due after the retry delay of the attempt it leads to', () => {
    const outcome = outcomeOfAnswer(event(1), { ok: false, status: 500, error: 'HTTP 500', durationMs: 3 }, () => at, schedule, middle);
    expect(outcome).toMatchObject({ result: 'failed', responseStatus: 500, error: 'HTTP 500', durationMs: 3 });
    // Retry 2: twice the base, at the middle of the jitter.
    expect(outcome.nextAttemptAt).toEqual(new Date(at.getTime() + 2000));
  });

  it('a failure with the retries used up: failed, nothing more due', () => {
    const outcome = outcomeOfAnswer(event(3), { ok: false, status: null, error: 'timeout after 5000 ms', durationMs: 5000 }, () => at, schedule, middle);
    expect(outcome).toMatchObject({ result: 'failed', responseStatus: null, error: 'timeout after 5000 ms', nextAttemptAt: null });
  });

  it('not started (its lease not certain): deferred to now, not counted as an attempt', () => {
    expect(outcomeOfAnswer(event(2), null, () => at, schedule)).toEqual({ event: event(2), result: 'deferred', responseStatus: null, error: '', durationMs: 0, nextAttemptAt: at });
  });
});

describe('a batch of outcomes', () => {
  const event: ClaimedEvent = { id: 7, account_id: 1, kind: 'status', body: '{}', attempts: 0, url: 'https://example.com/h', secret: null };
  const at = (s: number) => new Date(Date.UTC(2026, 11, 3, 10, 0, s));
  const batch = [
    outcomeOf(event, 'delivered', 200, '', 5, null),
    outcomeOf(event, 'failed', 500, 'HTTP 500', 5, at(30)),
    outcomeOf(event, 'deferred', null, '', 0, at(10)),
    outcomeOf(event, 'failed', 500, 'HTTP 500', 5, null),
    outcomeOf(event, 'delivered', 204, '', 5, null),
  ];

  it('counts its outcomes by result', () => {
    expect(countByResult(batch)).toEqual(
      new Map([
        ['delivered', 2],
        ['failed', 2],
        ['deferred', 1],
      ]),
    );
    expect(countByResult([])).toEqual(new Map());
  });

  it('wakes at the earliest retry a failed or deferred outcome schedules, and not at all when none does', () => {
    expect(earliestRetry(batch)).toEqual(at(10));
    expect(earliestRetry(batch.filter((o) => o.result !== 'deferred'))).toEqual(at(30));
    // A delivered or discarded outcome schedules nothing, whatever its time says.
    expect(earliestRetry([outcomeOf(event, 'discarded', null, 'webhook URL switched off', 0, at(1)), batch[3]])).toBeNull();
  });
});
