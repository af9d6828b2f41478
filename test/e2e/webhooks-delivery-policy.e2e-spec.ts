import { DataSource } from 'typeorm';
import { createAccount, startTestApp, TestApp } from '../support/test-app';
import { until } from '../support/wait';
import { WebhookReceiver } from '../support/webhook-receiver';

/** Its own file: no permissive worker (WEBHOOK_ALLOW_PRIVATE=true) shares this database. */
describe('Webhook address policy at delivery time (private addresses not allowed)', () => {
  let t: TestApp;
  const receiver = new WebhookReceiver();

  beforeAll(async () => {
    await receiver.start();
    t = await startTestApp({ sweepIntervalMs: 200, webhookRetryBaseMs: 60_000 });
  });
  afterAll(async () => {
    await t.close();
    await receiver.stop();
  });
  // The receiver is shared: each test asserts on what arrived during it alone.
  beforeEach(() => {
    receiver.received.length = 0;
  });

  it('refuses a host that resolves inward when the webhook is sent, even if it was accepted when saved', async () => {
    const sandbox = await createAccount(t.app, { test: true, senders: ['61400000001'] });
    // As if `localhost` had resolved to a public address when the URL was saved.
    await t.app.get(DataSource).query(`UPDATE accounts SET webhook_inbound_url = $2 WHERE id = $1`, [sandbox.accountId, `https://localhost:${receiver.port}/hook`]);
    expect((await t.api.post('/v1/test-inbound', { auth: sandbox.auth, body: { from: '0412000001', message: 'hi' } })).status).toBe(200);
    await until(async () => (await t.api.get('/v1/webhook-deliveries', { auth: sandbox.auth })).body.total === 1, 'the refused attempt');
    const [attempt] = (await t.api.get('/v1/webhook-deliveries', { auth: sandbox.auth })).body.results;
    expect(attempt).toMatchObject({ event: 'inbound', attempt: 1, delivered: false, response_status: null, error: 'Webhook URL is not allowed' });
    expect(receiver.received).toHaveLength(0);
  });

  it('refuses a private address literal and a plain-http URL stored before the policy applied', async () => {
    const sandbox = await createAccount(t.app, { test: true, senders: ['61400000001'] });
    await t.app.get(DataSource).query(`UPDATE accounts SET webhook_inbound_url = $2 WHERE id = $1`, [sandbox.accountId, receiver.url('/plain')]);
    await t.api.post('/v1/test-inbound', { auth: sandbox.auth, body: { from: '0412000002', message: 'hi' } });
    await until(async () => (await t.api.get('/v1/webhook-deliveries', { auth: sandbox.auth })).body.total === 1, 'the refused attempt');
    expect((await t.api.get('/v1/webhook-deliveries', { auth: sandbox.auth })).body.results[0]).toMatchObject({ delivered: false, error: 'Webhook URLs must use https' });
    expect(receiver.received).toHaveLength(0);
  });
});
