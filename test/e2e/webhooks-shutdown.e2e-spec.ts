import { DataSource } from 'typeorm';
import { WebhookQueue } from '../../src/queues/webhook-queue';
import { WebhookDeliveryService } from '../../src/webhooks/webhook-delivery.service';
import { createAccount, startTestApp, TestApp } from '../support/test-app';
import { until } from '../support/wait';
import { WebhookReceiver } from '../support/webhook-receiver';

/**
 * A worker stopping while an attempt is under way: the deliverer's shutdown waits for the receiver's answer
 * and records it before it returns (the database still open), so the event is delivered once and logged,
 * not left leased for another deliverer to send again.
 */
describe('Webhook delivery at shutdown', () => {
  let t: TestApp;
  const receiver = new WebhookReceiver();

  beforeAll(async () => {
    await receiver.start();
    t = await startTestApp({ webhookAllowPrivate: true });
  });
  afterAll(async () => {
    await t?.close();
    await receiver.stop();
  });

  it('records the outcome of an attempt still waiting for its answer before its shutdown returns', async () => {
    const ds = t.app.get(DataSource);
    const { accountId } = await createAccount(t.app, { test: true });
    await ds.query(`UPDATE accounts SET webhook_status_url = $2 WHERE id = $1`, [accountId, receiver.url('/slow')]);
    receiver.setDefault({ status: 200, delayMs: 700 });
    const [{ id }] = await ds.query(`INSERT INTO webhook_events (account_id, kind, body) VALUES ($1, 'status', '{"n":"in flight at shutdown"}') RETURNING id`, [accountId]);
    await t.app.get(WebhookQueue).wake();
    await until(async () => receiver.arrived === 1, 'the attempt to reach the receiver', 10_000, 10);
    expect(receiver.received).toHaveLength(0);

    await t.app.get(WebhookDeliveryService).beforeApplicationShutdown();

    expect(receiver.received.map((w) => w.body)).toEqual([{ n: 'in flight at shutdown' }]);
    expect(await ds.query(`SELECT state, attempts, leased_by FROM webhook_events WHERE id = $1`, [id])).toEqual([{ state: 'delivered', attempts: 1, leased_by: null }]);
    expect(await ds.query(`SELECT attempt, response_status, delivered FROM webhook_attempts WHERE event_id = $1`, [id])).toEqual([
      { attempt: 1, response_status: 200, delivered: true },
    ]);
  });
});

/**
 * A worker stopping while a slow host's queue is full: the attempts under way finish and are recorded, but
 * none queued behind them starts. Those events go back pending, uncounted and unleased, due now, while the
 * attempts under way still wait for their answers, so another deliverer can take them at once instead of the
 * stop waiting for the whole queue (or their leases running out).
 */
describe('Webhook delivery at shutdown, a slow host with attempts queued', () => {
  const HOST_CONCURRENCY = 2;
  const EVENTS = 10;
  let t: TestApp;
  const receiver = new WebhookReceiver();

  beforeAll(async () => {
    await receiver.start();
    t = await startTestApp({ webhookAllowPrivate: true, webhookHostConcurrency: HOST_CONCURRENCY });
  });
  afterAll(async () => {
    await t?.close();
    await receiver.stop();
  });

  it('finishes the attempts under way and gives back the queued ones, unattempted and due now', async () => {
    const ds = t.app.get(DataSource);
    const { accountId } = await createAccount(t.app, { test: true });
    await ds.query(`UPDATE accounts SET webhook_status_url = $2 WHERE id = $1`, [accountId, receiver.url('/slow')]);
    receiver.setDefault({ status: 200, delayMs: 2500 });
    const stored: Array<{ id: string }> = await ds.query(
      `INSERT INTO webhook_events (account_id, kind, body) SELECT $1, 'status', json_build_object('n', n)::text FROM generate_series(1, $2::int) AS n RETURNING id`,
      [accountId, EVENTS],
    );
    const ids = stored.map((s) => s.id);
    await t.app.get(WebhookQueue).wake();
    await until(async () => receiver.arrived === HOST_CONCURRENCY, 'the first attempts to reach the receiver', 10_000, 10);
    const [{ leased }] = await ds.query(`SELECT count(*)::int AS leased FROM webhook_events WHERE id = ANY($1::bigint[]) AND leased_by IS NOT NULL`, [ids]);
    expect(leased).toBe(EVENTS);

    const stopped = t.app.get(WebhookDeliveryService).beforeApplicationShutdown();
    const givenBackCount = async () => {
      const [{ n }] = await ds.query(`SELECT count(*)::int AS n FROM webhook_events WHERE id = ANY($1::bigint[]) AND state = 'pending' AND leased_by IS NULL`, [ids]);
      return n as number;
    };
    await until(async () => (await givenBackCount()) === EVENTS - HOST_CONCURRENCY, 'the queued events to be given back', 10_000, 20);
    // Given back before the attempts under way were answered.
    expect(receiver.received).toHaveLength(0);
    await stopped;

    expect(receiver.arrived).toBe(HOST_CONCURRENCY);
    expect(receiver.received).toHaveLength(HOST_CONCURRENCY);
    const sentIds = receiver.received.map((w) => Number(w.headers['x-mm-event-id'])).sort((a, b) => a - b);
    const rows: Array<{ id: number; state: string; attempts: number; leased_by: string | null; locked_until: Date | null; due: boolean }> = await ds.query(
      `SELECT id, state, attempts, leased_by, locked_until, next_attempt_at <= now() AS due FROM webhook_events WHERE id = ANY($1::bigint[]) ORDER BY id`,
      [ids],
    );
    const delivered = rows.filter((r) => r.state === 'delivered');
    expect(delivered.map((r) => r.id)).toEqual(sentIds);
    expect(delivered.every((r) => r.attempts === 1 && r.leased_by === null)).toBe(true);
    const givenBack = rows.filter((r) => r.state !== 'delivered');
    expect(givenBack).toHaveLength(EVENTS - HOST_CONCURRENCY);
    expect(givenBack.map(({ state, attempts, leased_by, locked_until, due }) => ({ state, attempts, leased_by, locked_until, due }))).toEqual(
      Array(EVENTS - HOST_CONCURRENCY).fill({ state: 'pending', attempts: 0, leased_by: null, locked_until: null, due: true }),
    );
    const [{ logged }] = await ds.query(`SELECT count(*)::int AS logged FROM webhook_attempts WHERE event_id = ANY($1::bigint[])`, [ids]);
    expect(logged).toBe(HOST_CONCURRENCY);
  });
});
