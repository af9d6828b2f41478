import { getQueueToken } from '@nestjs/bull';
import type { Queue } from 'bull';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { BALANCE_QUEUE } from '../../src/queues/balance-queue';
import { CONTACT_IMPORT_QUEUE } from '../../src/queues/contact-import-queue';
import { DISPATCH_QUEUE } from '../../src/queues/dispatch-queue';
import { WEBHOOK_QUEUE, WebhookQueue } from '../../src/queues/webhook-queue';
import { createAccount, startTestApp, TestApp } from '../support/test-app';
import { until } from '../support/wait';
import { WebhookReceiver } from '../support/webhook-receiver';

/**
 * A stopping process takes no new job while it finishes the work it has out: a wake-up added meanwhile stays
 * in the queue for the other workers (or the next start) instead of being taken here and dropped, since a
 * stopping deliverer starts no drain.
 */
describe('Jobs added while a worker stops', () => {
  let t: TestApp;
  /** The app's stop, once the test has begun it: afterAll waits for it rather than stopping the app twice. */
  let closing: Promise<void> | undefined;
  let closed = false;
  const receiver = new WebhookReceiver();

  beforeAll(async () => {
    await receiver.start();
    t = await startTestApp({ webhookAllowPrivate: true });
  });
  afterAll(async () => {
    await (closing ?? t?.close());
    await receiver.stop();
  });

  it('are left waiting for another worker, not taken by the stopping one', async () => {
    const ds = t.app.get(DataSource);
    const queue = (name: string) => t.app.get<Queue>(getQueueToken(name));
    const { accountId } = await createAccount(t.app, { test: true });
    await ds.query(`UPDATE accounts SET webhook_status_url = $2 WHERE id = $1`, [accountId, receiver.url('/slow')]);
    receiver.setDefault({ status: 200, delayMs: 1500 });
    await ds.query(`INSERT INTO webhook_events (account_id, kind, body) VALUES ($1, 'status', '{"n":1}')`, [accountId]);
    await t.app.get(WebhookQueue).wake();
    await until(async () => receiver.arrived === 1, 'the first attempt to reach the receiver', 10_000, 10);

    // The stop waits for that attempt's answer; meanwhile another event is stored and its wake-up added.
    const names = [DISPATCH_QUEUE, WEBHOOK_QUEUE, BALANCE_QUEUE, CONTACT_IMPORT_QUEUE];
    const pausedForTheStop = Promise.all(names.map((name) => new Promise((resolve) => queue(name).once('paused', resolve))));
    closing = t.app.close().finally(() => (closed = true));
    await pausedForTheStop;
    // At the start of the stop: the attempt under way has not been answered yet.
    expect(receiver.received).toHaveLength(0);
    expect(names.filter((name) => !queue(name).isPaused(true))).toEqual([]);
    const [{ id }] = await ds.query(`INSERT INTO webhook_events (account_id, kind, body) VALUES ($1, 'status', '{"n":2}') RETURNING id`, [accountId]);
    await t.app.get(WebhookQueue).wake();
    await new Promise((r) => setTimeout(r, 300));
    const counts = await queue(WEBHOOK_QUEUE).getJobCounts();
    // The one active job is the first wake-up, whose drain the stop is waiting for.
    expect({ waiting: counts.waiting, active: counts.active }).toEqual({ waiting: 1, active: 1 });
    expect(closed).toBe(false);

    await closing;
    expect(receiver.received.map((w) => w.body)).toEqual([{ n: 1 }]);
    // The app's own connections are closed: its database is read over a connection of the test's.
    const db = new Client({ connectionString: t.config.databaseUrl });
    await db.connect();
    try {
      const { rows } = await db.query(`SELECT state, attempts, leased_by FROM webhook_events WHERE id = $1`, [id]);
      expect(rows).toEqual([{ state: 'pending', attempts: 0, leased_by: null }]);
    } finally {
      await db.end();
    }
  });
});
