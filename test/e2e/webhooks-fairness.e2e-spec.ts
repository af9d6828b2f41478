import { DataSource } from 'typeorm';
import { WebhookQueue } from '../../src/queues/webhook-queue';
import { metricsText, sample } from '../support/metrics';
import { createAccount, startTestApp, TestApp } from '../support/test-app';
import { until } from '../support/wait';
import { WebhookReceiver } from '../support/webhook-receiver';

/** 2 deliveries at once per receiving host, 64 queued behind them: a backlog of 400 is six full queues. */
const HOST_CONCURRENCY = 2;
const BACKLOG = 400;
const SLOW_MS = 1000;

/**
 * One account's receiver is slow and its backlog is far larger than what the deliverer holds for one host.
 * Another account's webhooks, due after that whole backlog, must not wait for it: claims leave out the
 * accounts whose host is full, rather than taking the backlog in due order and queueing or putting it back.
 */
describe('Webhook delivery with one account’s receiver slow and a large backlog', () => {
  let t: TestApp;
  let ds: DataSource;
  const slow = new WebhookReceiver();
  const fast = new WebhookReceiver();

  beforeAll(async () => {
    await slow.start();
    await fast.start();
    slow.setDefault({ status: 200, delayMs: SLOW_MS });
    t = await startTestApp({ webhookAllowPrivate: true, webhookHostConcurrency: HOST_CONCURRENCY, sweepIntervalMs: 200 });
    ds = t.app.get(DataSource);
  });
  afterAll(async () => {
    slow.setDefault({ status: 200 });
    await t?.close();
    await slow.stop();
    await fast.stop();
  });

  const metrics = () => metricsText(t.app);

  async function accountPosting(url: string): Promise<number> {
    const { accountId } = await createAccount(t.app, { test: true });
    await ds.query(`UPDATE accounts SET webhook_status_url = $2 WHERE id = $1`, [accountId, url]);
    return accountId;
  }

  function storeEvents(accountId: number, count: number, tag: string): Promise<unknown> {
    return ds.query(`INSERT INTO webhook_events (account_id, kind, body) SELECT $1, 'status', '{"tag":"' || $3 || '","n":' || n || '}' FROM generate_series(1, $2) AS n`, [
      accountId,
      count,
      tag,
    ]);
  }

  it('delivers another account’s webhooks at once while the slow backlog waits its turn, and loses none of either', async () => {
    const patient = await accountPosting(slow.url('/slow'));
    const hurried = await accountPosting(fast.url('/fast'));
    await storeEvents(patient, BACKLOG, 'slow');
    await until(() => slow.received.length >= 1, 'the slow receiver to get work');
    // Whatever the deliverer put back meanwhile is due again before the other account's events are stored.
    await new Promise((r) => setTimeout(r, 500));
    await storeEvents(hurried, 5, 'fast');
    await t.app.get(WebhookQueue).wake(); // as the product does once it has stored events

    await until(() => fast.received.length === 5, 'the other account’s webhooks', 5000);
    // The slow receiver takes 2 a second: most of its backlog is still to come.
    expect(slow.received.length).toBeLessThan(BACKLOG / 4);
    expect(fast.received.map((h) => h.body.n).sort()).toEqual([1, 2, 3, 4, 5]);
    // Operators see it: one receiving host full, its 2 connections and most of its 64 places in use.
    const busy = await metrics();
    expect(sample(busy, 'sms_webhook_hosts_full')).toBe(1);
    expect(sample(busy, 'sms_webhook_in_flight')).toBeGreaterThan(50);

    // The receiver recovers: the whole backlog arrives, each event once, and every event is settled.
    slow.setDefault({ status: 200 });
    await until(
      async () => (await ds.query(`SELECT count(*)::int AS open FROM webhook_events WHERE account_id = $1 AND state = 'pending'`, [patient]))[0].open === 0,
      'the slow backlog to be delivered',
      60_000,
      200,
    );
    const numbers = slow.received.map((h) => h.body.n as number);
    expect(new Set(numbers).size).toBe(BACKLOG);
    const [{ attempts }] = await ds.query(`SELECT count(*)::int AS attempts FROM webhook_attempts WHERE account_id = $1 AND delivered`, [patient]);
    expect(attempts).toBe(BACKLOG);
    const idle = await metrics();
    expect([sample(idle, 'sms_webhook_hosts_full'), sample(idle, 'sms_webhook_in_flight')]).toEqual([0, 0]);
  });
});
