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
