import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { AttemptOutcome, ClaimedEvent, WebhookDeliveryRepository } from '../../src/webhooks/webhook-delivery.repository';
import { createAccount, startTestApp, TestApp } from '../support/test-app';
import { until } from '../support/wait';
import { WebhookReceiver } from '../support/webhook-receiver';

const EVENTS = 40;
const MAX_RETRIES = 10;
const TIMEOUT_MS = 250;
const RETRY_BASE_MS = 100;
const RETRY_MAX_MS = 400;
/** The leased deliverer's work: 4 at once to the receiving host, 32 queued behind them (8 × the slots). */
const HOST_CONCURRENCY = 4;

/** Holds the event loop (this process runs the deliverer) for `ms`, as a busy machine or a paused worker would. */
function starve(ms: number): void {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    /* spin */
  }
}

/**
 * A receiver that always fails, slowly, while the deliverer's event loop is starved now and then for longer
 * than its leases (4 × WEBHOOK_TIMEOUT_MS): an attempt must never be made while another of the same event
 * is alive, each attempt number is recorded once, and the schedule (base, doubling, capped, MAX_RETRIES) holds.
 */
describe('Webhook retries under load with a receiver that always fails', () => {
  let t: TestApp;
  const receiver = new WebhookReceiver();

  beforeAll(async () => {
    await receiver.start();
    receiver.setDefault({ status: 500, delayMs: 200 });
    t = await startTestApp({
      webhookAllowPrivate: true,
      webhookTimeoutMs: TIMEOUT_MS,
      webhookRetryBaseMs: RETRY_BASE_MS,
      webhookRetryMaxMs: RETRY_MAX_MS,
      webhookMaxRetries: MAX_RETRIES,
      webhookHostConcurrency: HOST_CONCURRENCY,
      sweepIntervalMs: 100,
    });
  });
  afterAll(async () => {
    await t?.close();
    await receiver.stop();
  });

  it('records each attempt number once, never more than 1 + 10 attempts, each retry after its delay', async () => {
    const ds = t.app.get(DataSource);
    const { accountId } = await createAccount(t.app, { test: true });
    await ds.query(`UPDATE accounts SET webhook_status_url = $2 WHERE id = $1`, [accountId, receiver.url('/always-fails')]);
    await ds.query(`INSERT INTO webhook_events (account_id, kind, body) SELECT $1, 'status', '{"n":' || n || '}' FROM generate_series(1, $2) AS n`, [accountId, EVENTS]);

    // Past the lease (4 × the timeout) every 2.5 s of free running.
    let loading = true;
    const load = () => {
      if (!loading) return;
      starve(TIMEOUT_MS * 5);
      setTimeout(load, 2500);
    };
    setTimeout(load, 1000);
    try {
      await until(
        async () => (await ds.query(`SELECT count(*)::int AS open FROM webhook_events WHERE account_id = $1 AND state = 'pending'`, [accountId]))[0].open === 0,
        'every event to use up its retries',
        150_000,
        200,
      );
    } finally {
      loading = false;
    }

    const attempts: Array<{ event_id: string; attempt: number }> = await ds.query(`SELECT event_id, attempt FROM webhook_attempts WHERE account_id = $1 ORDER BY event_id, id`, [
      accountId,
    ]);
    const byEvent = new Map<string, number[]>();
    for (const a of attempts) byEvent.set(a.event_id, [...(byEvent.get(a.event_id) ?? []), a.attempt]);
    expect(byEvent.size).toBe(EVENTS);
    // Each attempt number once, in order, and exactly the first attempt plus MAX_RETRIES retries.
    const all = Array.from({ length: MAX_RETRIES + 1 }, (_, i) => i + 1).join();
    expect([...byEvent.entries()].filter(([, numbers]) => numbers.join() !== all)).toEqual([]);
    const events = await ds.query(`SELECT attempts, state FROM webhook_events WHERE account_id = $1`, [accountId]);
    expect(new Set(events.map((e: { attempts: number; state: string }) => `${e.state}:${e.attempts}`))).toEqual(new Set([`failed:${MAX_RETRIES + 1}`]));

    // The receiver never saw an event more often than its recorded attempts: no attempt was made twice and left
    // unrecorded. (Fewer is possible: an attempt whose timeout fired, in a starved loop, before its request arrived.)
    const arrivals = new Map<number, number[]>();
    for (const w of receiver.received) arrivals.set(w.body.n, [...(arrivals.get(w.body.n) ?? []), w.arrivedAt]);
    expect(arrivals.size).toBe(EVENTS);
    expect([...arrivals.entries()].filter(([, times]) => times.length > MAX_RETRIES + 1)).toEqual([]);

    // Retry n arrives at least its delay (base × 2^(n-1), capped, less the 20% jitter) after attempt n arrived
    // (which ended later still); where an arrival is missing the gap spans more retries, so the bound still holds.
    // A starved loop can note an arrival late, so a little slack.
    const SLACK_MS = 50;
    const early = [...arrivals.entries()].flatMap(([n, times]) =>
      times.slice(1).flatMap((at, i) => {
        const delay = Math.min(RETRY_BASE_MS * 2 ** i, RETRY_MAX_MS) * 0.8;
        const gap = at - times[i];
        return gap + SLACK_MS < delay ? [{ event: n, retry: i + 1, gap, delay }] : [];
      }),
    );
    expect(early).toEqual([]);
  }, 180_000);
});

describe('Webhook leases', () => {
  let t: TestApp;
  // An api-role app: no deliverer runs here, so the test alone claims.
  beforeAll(async () => {
    t = await startTestApp({ appRole: 'api' });
  });
  afterAll(() => t?.close());

  it('records an outcome only for the holder of the lease at the attempt count it claimed', async () => {
    const ds = t.app.get(DataSource);
    const repo = new WebhookDeliveryRepository(ds);
    const { accountId } = await createAccount(t.app, { test: true });
    const [{ id }] = await ds.query(`INSERT INTO webhook_events (account_id, kind, body) VALUES ($1, 'status', '{}') RETURNING id`, [accountId]);
    const [paused, other] = [randomUUID(), randomUUID()];
    const claim = async (holder: string) => (await repo.claimDue(10_000, 60_000, holder, [])).find((e) => e.id === id)!;
    const failed = (event: ClaimedEvent): AttemptOutcome => ({
      event,
      result: 'failed',
      responseStatus: 500,
      error: 'HTTP 500',
      durationMs: 5,
      nextAttemptAt: new Date(Date.now() + 60_000),
    });

    const first = await claim(paused);
    expect(first).toMatchObject({ id, attempts: 0 });
    // The paused holder's lease runs out; another deliverer claims the event and attempts it.
    await ds.query(`UPDATE webhook_events SET locked_until = now() - interval '1 second' WHERE id = $1`, [id]);
    const second = await claim(other);
    expect(second).toMatchObject({ id, attempts: 0 });
    expect(await repo.renewLeases(paused, [id], 60_000)).toEqual([]);
    expect(await repo.renewLeases(other, [id], 60_000)).toEqual([id]);

    expect(await repo.recordOutcomes(other, [failed(second)])).toBe(0);
    // The paused holder's late outcome of the same attempt is not recorded, nor counted.
    expect(await repo.recordOutcomes(paused, [failed(first)])).toBe(1);
    expect(await ds.query(`SELECT attempt FROM webhook_attempts WHERE event_id = $1`, [id])).toEqual([{ attempt: 1 }]);
    expect(await ds.query(`SELECT attempts, state, leased_by FROM webhook_events WHERE id = $1`, [id])).toEqual([{ attempts: 1, state: 'pending', leased_by: null }]);
    // A holder never claims again what it still holds.
    await ds.query(`UPDATE webhook_events SET next_attempt_at = now(), leased_by = $2, locked_until = now() - interval '1 second' WHERE id = $1`, [id, other]);
    expect((await repo.claimDue(10_000, 60_000, other, [id])).map((e) => e.id)).not.toContain(id);
  });
});
