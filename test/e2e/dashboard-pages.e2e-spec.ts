import { DataSource } from 'typeorm';
import { accountWithOwner, signedIn } from '../support/dashboard';
import { textOf } from '../support/page-client';
import { startTestApp, TestApp } from '../support/test-app';
import { until } from '../support/wait';
import { WebhookReceiver } from '../support/webhook-receiver';

/** What the pages show: the account, its sends and messages with parts and receipts, webhook deliveries, keys' last use. */
describe('Dashboard pages', () => {
  let t: TestApp;
  const receiver = new WebhookReceiver();

  beforeAll(async () => {
    await receiver.start();
    t = await startTestApp({ webhookAllowPrivate: true, testReceiptDelayMs: 100, sweepIntervalMs: 200, inflightLimit: 50 });
  });
  afterAll(async () => {
    await t.close();
    await receiver.stop();
  });

  it('overview: balance, the test-account badge and the latest sends counted by status', async () => {
    const acct = await accountWithOwner(t.app, { test: true, credits: 12.5, senders: ['Brand'], name: 'Bakery <Test> & Co' });
    const send = await t.api.post('/v1/messages', {
      auth: acct.auth,
      body: {
        messages: [
          { to: '0412345678', message: 'Hi', sender: 'Brand' },
          { to: '0412345000', message: 'Hi', sender: 'Brand' },
          { to: 'bad', message: 'Hi', sender: 'Brand' },
        ],
      },
    });
    expect(send.status).toBe(200);
    await until(async () => (await t.api.get('/v1/messages', { auth: acct.auth, query: { status: 'failed' } })).body.total === 1, 'the simulated receipts');
    const owner = await signedIn(t.app, acct.ownerEmail);
    const res = await owner.get('/overview');
    expect(res.html).toContain('<h1>Bakery &lt;Test&gt; &amp; Co <span class="badge badge-test">Test account</span></h1>');
    const text = textOf(res.html);
    expect(text).toContain('Credit balance 12.50 credits');
    expect(text).toContain(`#${send.body.send_id} Batch`);
    expect(text).toMatch(/2 1 delivered 1 failed 2\.00/);
  });

  it('messages: the history with the API’s filters and paging, and each message with its parts and receipts', async () => {
    const acct = await accountWithOwner(t.app, { test: true, senders: ['Brand'] });
    const long = 'x'.repeat(200);
    const sent = await t.api.post('/v1/messages', {
      auth: acct.auth,
      body: {
        messages: [
          { to: '0412345678', message: long, sender: 'Brand', custom_ref: 'order-7' },
          { to: '0412345679', message: 'Short', sender: 'Brand' },
        ],
      },
    });
    const id = sent.body.results[0].message_id;
    await until(async () => (await t.api.get('/v1/messages', { auth: acct.auth, query: { status: 'delivered' } })).body.total === 2, 'delivery');
    const owner = await signedIn(t.app, acct.ownerEmail);

    const all = textOf((await owner.get('/messages')).html);
    expect(all).toContain('61412345678');
    expect(all).toContain('61412345679');
    const byRef = await owner.get('/messages?custom_ref=order-7');
    expect(byRef.html).toContain(`href="/messages/${id}"`);
    expect(byRef.html).not.toContain('61412345679');
    expect(textOf((await owner.get('/messages?status=failed')).html)).toContain('No messages match.');

    // A reference or id that matches nothing is an empty result on the same page, the filter kept (the API's 404 is its own).
    const noRef = await owner.get('/messages?custom_ref=order-1');
    expect(noRef.status).toBe(200);
    expect(noRef.html).toContain('<input id="custom_ref" name="custom_ref" type="text" value="order-1">');
    expect(textOf(noRef.html)).toContain('No messages match.');
    const noId = await owner.get('/messages?message_id=00000000-0000-0000-0000-000000000000');
    expect(noId.status).toBe(200);
    expect(noId.html).toContain('value="00000000-0000-0000-0000-000000000000"');
    expect(textOf(noId.html)).toContain('No messages match.');
    const malformed = await owner.get('/messages?message_id=abc123');
    expect(malformed.status).toBe(400);
    // The filter it is about is marked, and read out with the error (the form-error partial's text).
    expect(malformed.html).toContain('<input id="message_id" name="message_id" type="text" value="abc123" aria-invalid="true" aria-describedby="form-error">');
    expect(malformed.html).toContain('<p id="form-error">That is not a message ID.');
    expect(textOf(malformed.html)).toContain('That is not a message ID. A message ID looks like 3f2b9c1e-7a4d-4e0b-9c55-1d2e3f4a5b6c; copy it from the message.');
    expect(textOf(malformed.html)).not.toContain('No messages match.');

    const bad = await owner.get('/messages?status=lost');
    expect(bad.status).toBe(400);
    expect(textOf(bad.html)).toContain('Invalid status filter. Valid values: pending, scheduled, sent, delivered, failed, cancelled');
    expect(textOf((await owner.get('/messages?from=yesterday')).html)).toContain('Invalid from date; expected format YYYY-MM-DD');

    const detail = textOf((await owner.get(`/messages/${id}`)).html);
    expect(detail).toContain('Status delivered');
    expect(detail).toContain('Encoding GSM-7, 2 parts');
    expect(detail).toContain('Custom ref order-7');
    // Test accounts' receipts are simulated: the part records when it settled, with no carrier receipt behind it.
    // Times in the account's zone (Sydney by default), with its abbreviation.
    expect(detail).toMatch(/1 of 2 delivered \S+ \S+ AE[DS]T delivered \S+ \S+ AE[DS]T 2 of 2/);
    expect(detail).toMatch(/2 of 2 delivered \S+ \S+ AE[DS]T delivered \S+ \S+ AE[DS]T/);

    expect((await owner.get('/messages/00000000-0000-0000-0000-000000000000')).status).toBe(404);
    expect((await owner.get('/messages/not-a-uuid')).status).toBe(404);
    const other = await accountWithOwner(t.app);
    expect((await (await signedIn(t.app, other.ownerEmail)).get(`/messages/${id}`)).status).toBe(404);
  });

  it('pages the history 50 at a time, keeping the filters', async () => {
    const acct = await accountWithOwner(t.app, { test: true, senders: ['Brand'] });
    const messages = Array.from({ length: 60 }, (_, i) => ({ to: `04123456${String(i).padStart(2, '0')}`, message: `n${i}`, sender: 'Brand' }));
    await t.api.post('/v1/messages', { auth: acct.auth, body: { messages } });
    const owner = await signedIn(t.app, acct.ownerEmail);
    const first = await owner.get('/messages?status=');
    expect(textOf(first.html)).toContain('1–50 of 60');
    // Handlebars writes "=" in attributes as &#x3D;, which browsers read as "=".
    expect(first.html).toContain('href="/messages?offset&#x3D;50" rel="next"');
    const second = await owner.get('/messages?offset=50');
    expect(textOf(second.html)).toContain('51–60 of 60');
    expect(second.html).toContain('href="/messages?offset&#x3D;0" rel="prev"');
  });

  it('webhooks: the recent deliveries from the delivery log', async () => {
    const acct = await accountWithOwner(t.app, { test: true, senders: ['Brand'] });
    await t.api.patch('/v1/webhooks', { auth: acct.auth, body: { status: receiver.url('/dash') } });
    await t.api.post('/v1/messages', { auth: acct.auth, body: { messages: [{ to: '0412345678', message: 'Hi', sender: 'Brand' }] } });
    await until(() => receiver.received.some((w) => w.body?.to === '61412345678'), 'the status webhook');
    const owner = await signedIn(t.app, acct.ownerEmail);
    await until(async () => textOf((await owner.get('/settings/webhooks')).html).includes('delivered HTTP 200'), 'the delivery on the page');
    const page = textOf((await owner.get('/settings/webhooks')).html);
    expect(page).toContain(receiver.url('/dash'));
    expect(page).toMatch(/status #\d+ .* 1 delivered HTTP 200/);
  });

  it('API keys record their last use, written at most once a minute', async () => {
    const acct = await accountWithOwner(t.app);
    const owner = await signedIn(t.app, acct.ownerEmail);
    expect(textOf((await owner.get('/settings/api')).html)).toContain('Last used never');
    const db = t.app.get(DataSource);
    const lastUsed = async () => (await db.query(`SELECT last_used_at FROM api_keys WHERE username = $1`, [acct.username]))[0].last_used_at as Date | null;
    await t.api.get('/v1/account', { auth: acct.auth });
    const first = await lastUsed();
    expect(first).toBeInstanceOf(Date);
    await t.api.get('/v1/account', { auth: acct.auth });
    expect(await lastUsed()).toEqual(first);
    await db.query(`UPDATE api_keys SET last_used_at = now() - interval '61 seconds' WHERE username = $1`, [acct.username]);
    const aged = await lastUsed();
    await t.api.get('/v1/account', { auth: acct.auth });
    expect((await lastUsed())!.getTime()).toBeGreaterThan(aged!.getTime());
    expect(textOf((await owner.get('/settings/api')).html)).toMatch(/Last used \d{4}-\d\d-\d\d \d\d:\d\d:\d\d AE[DS]T/);
  });
});
