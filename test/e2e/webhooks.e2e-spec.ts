import { networkInterfaces } from 'node:os';
import { createHmac, randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { verifyWebhookSignature } from '../../src';
import { UnitOfWork } from '../../src/database/unit-of-work';
import { PartStatusChange, receiptBody, WebhookEventsService } from '../../src/webhooks/webhook-events.service';
import { createAccount, startTestApp, TestAccount, TestApp } from '../support/test-app';
import { until } from '../support/wait';
import { WebhookReceiver } from '../support/webhook-receiver';

/** The supplement's rule, written out independently: hex HMAC-SHA256 keyed with the secret, of timestamp + "." + raw body. */
function independentlyValid(secret: string, timestamp: string, raw: string, signature: string): boolean {
  return createHmac('sha256', secret).update(`${timestamp}.${raw}`).digest('hex') === signature;
}

describe('Webhooks', () => {
  let t: TestApp;
  const receiver = new WebhookReceiver();
  const tomorrow = () => new Date(Date.now() + 86_400_000).toISOString().slice(0, 19);

  beforeAll(async () => {
    await receiver.start();
    t = await startTestApp({
      inflightLimit: 50,
      webhookAllowPrivate: true,
      webhookTimeoutMs: 800,
      webhookRetryBaseMs: 100,
      webhookRetryMaxMs: 400,
      webhookMaxRetries: 3,
      sweepIntervalMs: 200,
      testReceiptDelayMs: 200,
    });
  });
  afterAll(async () => {
    await t.close();
    await receiver.stop();
  });
  beforeEach(() => {
    receiver.received.length = 0;
  });

  async function accountWithHooks(options: { status?: string; inbound?: string; secret?: boolean } = {}): Promise<TestAccount & { secret?: string }> {
    const acct = await createAccount(t.app, { test: true, senders: ['Brand', '61400000001'] });
    await t.api.patch('/v1/webhooks', { auth: acct.auth, body: { status: options.status ?? '', inbound: options.inbound ?? '' } });
    if (!options.secret) return acct;
    const secret = (await t.api.post('/v1/webhooks/signing-secret', { auth: acct.auth })).body.signing_secret as string;
    return { ...acct, secret };
  }
  const send = (acct: TestAccount, messages: Array<Record<string, unknown>>, extra: Record<string, unknown> = {}) =>
    t.api.post('/v1/messages', { auth: acct.auth, body: { messages, ...extra } }).then((r) => r.body);
  const forMessage = (id: string) => receiver.received.filter((w) => w.body?.message_id === id);

  describe('settings', () => {
    it('round-trips the URLs, switches a kind off with "", and never returns the secret', async () => {
      const acct = await createAccount(t.app);
      expect((await t.api.get('/v1/webhooks', { auth: acct.auth })).body).toEqual({ status: 'complete', webhooks: { inbound: '', status: '' }, has_signing_secret: false });
      const set = await t.api.patch('/v1/webhooks', { auth: acct.auth, body: { inbound: receiver.url('/in'), status: receiver.url('/st') } });
      expect(set.body).toEqual({ status: 'complete', webhooks: { inbound: receiver.url('/in'), status: receiver.url('/st') }, has_signing_secret: false });
      const off = await t.api.patch('/v1/webhooks', { auth: acct.auth, body: { inbound: '' } });
      expect(off.body.webhooks).toEqual({ inbound: '', status: receiver.url('/st') });
      const first = await t.api.post('/v1/webhooks/signing-secret', { auth: acct.auth });
      const second = await t.api.post('/v1/webhooks/signing-secret', { auth: acct.auth });
      expect(first.body.signing_secret).toMatch(/^whsec_[A-Za-z0-9_-]{32}$/);
      expect(second.body.signing_secret).not.toBe(first.body.signing_secret);
      const after = await t.api.get('/v1/webhooks', { auth: acct.auth });
      expect(after.body.has_signing_secret).toBe(true);
      expect(after.text).not.toContain(second.body.signing_secret);
    });

    describe('with private addresses not allowed (the default)', () => {
      let strict: TestApp;
      let acct: TestAccount;
      beforeAll(async () => {
        strict = await startTestApp({ appRole: 'api' });
      });
      // Its own account per test: one test saves a URL that another asserts is still empty.
      beforeEach(async () => {
        acct = await createAccount(strict.app);
      });
      afterAll(() => strict.close());

      it.each([
        ['http://93.184.216.34/hook', 'Webhook URLs must use https'],
        ['not a url', 'Invalid webhook URL'],
        ['ftp://93.184.216.34/x', 'Invalid webhook URL'],
        ['https://user:pw@93.184.216.34/x', 'Invalid webhook URL'],
        // The .invalid top-level domain never resolves, with or without DNS on the machine.
        ['https://hooks.example.invalid/hook', 'Webhook URL host could not be resolved'],
        ['https://127.0.0.1/hook', 'Webhook URL is not allowed'],
        ['https://localhost/hook', 'Webhook URL is not allowed'],
        ['https://10.0.0.5/hook', 'Webhook URL is not allowed'],
        ['https://192.168.1.10/hook', 'Webhook URL is not allowed'],
        ['https://172.20.0.1/hook', 'Webhook URL is not allowed'],
        ['https://169.254.169.254/latest/meta-data', 'Webhook URL is not allowed'],
        ['https://[::1]/hook', 'Webhook URL is not allowed'],
        ['https://[fe80::1]/hook', 'Webhook URL is not allowed'],
        ['https://[::ffff:127.0.0.1]/hook', 'Webhook URL is not allowed'],
        ['https://[::127.0.0.1]/', 'Webhook URL is not allowed'],
        ['https://[2002:7f00:1::]/', 'Webhook URL is not allowed'],
        ['https://[64:ff9b::a9fe:a9fe]/latest/meta-data', 'Webhook URL is not allowed'],
        ['https://[2001:0:4136:e378:8000:63bf:80ff:fffe]/', 'Webhook URL is not allowed'],
        ['https://[::ffff:0:10.0.0.1]/', 'Webhook URL is not allowed'],
        ['https://0x7f000001/hook', 'Webhook URL is not allowed'],
        ['https://198.51.100.7/hook', 'Webhook URL is not allowed'],
        ['https://[2001:db8::1]/hook', 'Webhook URL is not allowed'],
      ])('refuses %s', async (url, error) => {
        for (const field of ['status', 'inbound']) {
          const res = await strict.api.patch('/v1/webhooks', { auth: acct.auth, body: { [field]: url } });
          expect([field, res.status, res.body]).toEqual([field, 400, { error }]);
        }
        expect((await strict.api.get('/v1/webhooks', { auth: acct.auth })).body.webhooks).toEqual({ inbound: '', status: '' });
      });

      it('refuses URLs over 2048 characters (a 1 MB one was once stored) and takes one of exactly 2048', async () => {
        const base = 'https://93.184.216.34/';
        for (const url of [base + 'a'.repeat(2049 - base.length), base + 'a'.repeat(1024 * 1024)]) {
          const res = await strict.api.patch('/v1/webhooks', { auth: acct.auth, body: { inbound: url } });
          expect([url.length, res.status, res.body]).toEqual([url.length, 400, { error: 'Webhook URLs must be at most 2048 characters' }]);
        }
        const longest = base + 'a'.repeat(2048 - base.length);
        expect((await strict.api.patch('/v1/webhooks', { auth: acct.auth, body: { inbound: longest } })).body.webhooks.inbound).toBe(longest);
      });

      it("refuses every address of this machine's own interfaces", async () => {
        const own = Object.values(networkInterfaces()).flatMap((list) => list ?? []);
        expect(own.length).toBeGreaterThan(0);
        for (const { address, family } of own) {
          const url = family === 'IPv4' ? `https://${address}/hook` : `https://[${address.split('%')[0]}]/hook`;
          const res = await strict.api.patch('/v1/webhooks', { auth: acct.auth, body: { status: url } });
          expect([url, res.status, res.body]).toEqual([url, 400, { error: 'Webhook URL is not allowed' }]);
        }
      });

      it.each([
        'https://93.184.216.34/hook\r\nX-Injected: 1',
        'https://93.184.216.34/a b',
        'https://93.184.216.34/\thook',
        'https://93.184.216.34/hook\n',
        'https://93.184.216.34/a\u00a0b',
      ])('refuses %j (whitespace or control characters) and stores nothing', async (url) => {
        const res = await strict.api.patch('/v1/webhooks', { auth: acct.auth, body: { status: url } });
        expect([res.status, res.body]).toEqual([400, { error: 'Webhook URLs must not contain spaces or control characters' }]);
        expect((await strict.api.get('/v1/webhooks', { auth: acct.auth })).body.webhooks).toEqual({ inbound: '', status: '' });
      });

      it('stores the parsed URL, the one that is called', async () => {
        const res = await strict.api.patch('/v1/webhooks', { auth: acct.auth, body: { status: '  HTTPS://93.184.216.34:443/a/../sms?x=é  ' } });
        expect(res.body.webhooks.status).toBe('https://93.184.216.34/sms?x=%C3%A9');
      });

      it('accepts an https URL on a public address', async () => {
        const res = await strict.api.patch('/v1/webhooks', { auth: acct.auth, body: { status: 'https://93.184.216.34/sms/status' } });
        expect(res.body.webhooks.status).toBe('https://93.184.216.34/sms/status');
      });

      it('answers 400 for a non-string URL', async () => {
        expect((await strict.api.patch('/v1/webhooks', { auth: acct.auth, body: { status: 5 } })).body).toEqual({ error: 'status must be a string' });
      });
    });
  });

  it('sends one signed status webhook per part, with the supplement’s body, for a 3-part message on a test account', async () => {
    const acct = await accountWithHooks({ status: receiver.url('/status'), secret: true });
    const sent = await send(acct, [{ to: '0412000011', message: 'x'.repeat(400), sender: 'Brand', custom_ref: 'three' }]);
    const id = sent.results[0].message_id;
    await until(() => forMessage(id).length === 3, 'three part webhooks');
    const hooks = forMessage(id).sort((a, b) => a.body.part_number - b.body.part_number);
    expect(new Set(hooks.map((h) => h.headers['x-mm-event-id'])).size).toBe(3); // one event per part
    for (const [i, hook] of hooks.entries()) {
      expect(hook.body).toEqual({
        to: '61412000011',
        sender: 'Brand',
        message: 'x'.repeat(400),
        custom_ref: 'three',
        status: 'delivered',
        message_id: id,
        received_at: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
        part_number: i + 1,
        total_parts: 3,
      });
      expect(Object.keys(hook.body)).toEqual(['to', 'sender', 'message', 'custom_ref', 'status', 'message_id', 'received_at', 'part_number', 'total_parts']);
      expect(t.api.webhookProblem('messageStatus', hook.body)).toBeNull();
      expect(hook.headers['content-type']).toBe('application/json');
      expect(hook.headers['x-mm-event-id']).toMatch(/^[1-9]\d*$/);
      const ts = hook.headers['x-mm-timestamp'] as string;
      const sig = hook.headers['x-mm-signature'] as string;
      expect(Math.abs(Number(ts) - Date.now() / 1000)).toBeLessThan(60);
      expect(independentlyValid(acct.secret!, ts, hook.raw, sig)).toBe(true);
      expect(verifyWebhookSignature(acct.secret!, ts, hook.raw, sig)).toBe(true);
      // A receiver must refuse tampered bodies, other secrets and stale timestamps.
      expect(verifyWebhookSignature(acct.secret!, ts, hook.raw.replace('delivered', 'failed'), sig)).toBe(false);
      expect(verifyWebhookSignature('whsec_other', ts, hook.raw, sig)).toBe(false);
      expect(verifyWebhookSignature(acct.secret!, ts, hook.raw, sig, new Date((Number(ts) + 301) * 1000))).toBe(false);
      expect(verifyWebhookSignature(acct.secret!, ts, hook.raw, sig, new Date((Number(ts) + 299) * 1000))).toBe(true);
    }
  });

  it("builds each receipt event's body in PostgreSQL byte for byte as receiptBody writes it, texts JSON escapes included", async () => {
    const acct = await accountWithHooks({ status: receiver.url('/status') });
    const quiet = await accountWithHooks();
    const ds = t.app.get(DataSource);
    const texts = ['plain', 'a "quoted" \\ back\\slash', 'line\nbreak\r\ttab \b\f \u0001\u001f\u007f', 'Kia ora 👋 — “smart” \u2028 é', '</script>'];
    const [{ id: sendId }] = await ds.query(`INSERT INTO sends (account_id, kind) VALUES ($1, 'batch') RETURNING id`, [acct.accountId]);
    const ids: string[] = (
      await ds.query(
        `INSERT INTO messages (id, account_id, send_id, to_number, sender, sender_type, body, custom_ref, status, encoding, parts, cost, is_test, dispatch_at)
         SELECT gen_random_uuid(), $1, $2, '6141200' || lpad(t.n::text, 4, '0'), 'Brand "B"', 'alphanumeric', t.body, CASE WHEN t.n % 2 = 0 THEN NULL ELSE 'ref "' || t.n || '" \\' END,
                'sent', 'ucs2', 2, 0, true, now()
           FROM unnest($3::text[]) WITH ORDINALITY AS t(body, n) ORDER BY t.n RETURNING id`,
        [acct.accountId, sendId, texts],
      )
    ).map((r: { id: string }) => r.id);
    const at = Date.UTC(2026, 10, 27, 23, 59, 58, 999);
    const changes: PartStatusChange[] = [
      ...ids.map((messageId, i) => ({
        accountId: acct.accountId,
        messageId,
        partNumber: 2,
        totalParts: 2,
        status: i % 2 ? ('failed' as const) : ('delivered' as const),
        atMs: at + i * 1000,
      })),
      { accountId: acct.accountId, messageId: ids[1], partNumber: 1, totalParts: 2, status: 'failed', atMs: at, errorCode: 0x58 },
      { accountId: acct.accountId, messageId: randomUUID(), partNumber: 1, totalParts: 1, status: 'delivered', atMs: at }, // no such message: no event
      { accountId: quiet.accountId, messageId: ids[0], partNumber: 1, totalParts: 1, status: 'delivered', atMs: at }, // no status URL: no event
    ];
    const [{ last }] = await ds.query(`SELECT coalesce(max(id), 0)::bigint AS last FROM webhook_events`);

    const created = await t.app.get(UnitOfWork).run((tx) => t.app.get(WebhookEventsService).partsChanged(changes, tx));

    const stored: Array<{ account_id: number; body: string }> = await ds.query(`SELECT account_id, body FROM webhook_events WHERE id > $1 AND kind = 'status' ORDER BY id`, [last]);
    const rows: Array<{ id: string; to_number: string; sender: string; body: string; custom_ref: string | null }> = await ds.query(
      `SELECT id, to_number, sender, body, custom_ref FROM messages WHERE id = ANY($1::uuid[])`,
      [ids],
    );
    const message = (id: string) => {
      const row = rows.find((r) => r.id === id)!;
      return { to: row.to_number, sender: row.sender, body: row.body, customRef: row.custom_ref };
    };
    const expected = changes
      .slice(0, ids.length + 1)
      .map((c) => receiptBody(message(c.messageId), c.status, c.messageId, new Date(c.atMs), c.partNumber, c.totalParts, c.errorCode));
    expect(created).toBe(ids.length + 1);
    expect(stored.map((e) => e.account_id)).toEqual(expected.map(() => acct.accountId));
    expect(stored.map((e) => e.body)).toEqual(expected);
    expect(JSON.parse(stored[ids.length].body).carrier_error).toEqual({ code: 0x58, description: expect.any(String) });
    for (const e of stored) expect(t.api.webhookProblem('messageStatus', JSON.parse(e.body))).toBeNull();
  });

  it('reports failed for numbers ending in 000 and sends unsigned webhooks when there is no secret', async () => {
    const acct = await accountWithHooks({ status: receiver.url('/status') });
    const sent = await send(acct, [{ to: '0412345000', message: 'no', sender: 'Brand' }]);
    await until(() => forMessage(sent.results[0].message_id).length === 1, 'the failure webhook');
    const [hook] = forMessage(sent.results[0].message_id);
    expect(hook.body).toMatchObject({ status: 'failed', custom_ref: '', part_number: 1, total_parts: 1 });
    expect(hook.headers['x-mm-signature']).toBeUndefined();
    expect(hook.headers['x-mm-timestamp']).toMatch(/^\d+$/);
  });

  it('sends nothing when the status URL is empty', async () => {
    const acct = await accountWithHooks();
    const sent = await send(acct, [{ to: '0412000012', message: 'quiet', sender: 'Brand' }]);
    const quiet = sent.results[0].message_id;
    await until(async () => (await t.api.get('/v1/messages', { auth: acct.auth, query: { message_id: quiet } })).body.results[0].status === 'delivered', 'delivery');
    // Control: with the URL now set, a second message takes the same path (receipt, event, delivery) and
    // its webhook arrives. Anything made for the first one would have been made and sent before it.
    await t.api.patch('/v1/webhooks', { auth: acct.auth, body: { status: receiver.url('/status') } });
    const control = (await send(acct, [{ to: '0412000022', message: 'control', sender: 'Brand' }])).results[0].message_id;
    await until(() => forMessage(control).length === 1, 'the control webhook');
    expect(forMessage(quiet)).toHaveLength(0);
    const events: Array<{ body: string }> = await t.app.get(DataSource).query('SELECT body FROM webhook_events WHERE account_id = $1', [acct.accountId]);
    expect(events.map((e) => JSON.parse(e.body).message_id)).toEqual([control]);
  });

  it('sends a cancelled webhook for each part of a cancelled scheduled message', async () => {
    const acct = await accountWithHooks({ status: receiver.url('/status') });
    const sent = await send(acct, [{ to: '0412000013', message: 'y'.repeat(200), sender: 'Brand', scheduled_for: tomorrow() }]);
    await t.api.delete('/v1/messages', { auth: acct.auth, body: { message_id: sent.results[0].message_id } });
    await until(() => forMessage(sent.results[0].message_id).length === 2, 'two cancellation webhooks');
    expect(
      forMessage(sent.results[0].message_id)
        .map((h) => [h.body.status, h.body.part_number, h.body.total_parts])
        .sort(),
    ).toEqual([
      ['cancelled', 1, 2],
      ['cancelled', 2, 2],
    ]);
    for (const h of forMessage(sent.results[0].message_id)) expect(t.api.webhookProblem('messageStatus', h.body)).toBeNull();
  });

  it('sends inbound webhooks for replies and opt-outs', async () => {
    const acct = await accountWithHooks({ inbound: receiver.url('/inbound'), secret: true });
    const out = await send(acct, [{ to: '0412000014', message: 'Reply?', sender: '61400000001', custom_ref: 'q1' }]);
    await t.api.post('/v1/test-inbound', { auth: acct.auth, body: { from: '0412000014', message: 'Sure' } });
    await t.api.post('/v1/test-inbound', { auth: acct.auth, body: { from: '0412000014', message: 'STOP' } });
    // The receiver is shared: count only the inbound webhooks answering this test's message.
    const mine = () => receiver.received.filter((h) => h.body?.type && h.body.original_message_id === out.results[0].message_id);
    await until(() => mine().length === 2, 'two inbound webhooks');
    const hooks = mine();
    expect(hooks.map((h) => h.body)).toEqual(
      expect.arrayContaining([
        {
          to: '61400000001',
          sender: '61412000014',
          message: 'Sure',
          received_at: expect.any(String),
          type: 'inbound',
          original_message_id: out.results[0].message_id,
          original_custom_ref: 'q1',
        },
        {
          to: '61400000001',
          sender: '61412000014',
          message: 'STOP',
          received_at: expect.any(String),
          type: 'unsubscribe',
          original_message_id: out.results[0].message_id,
          original_custom_ref: 'q1',
        },
      ]),
    );
    for (const h of hooks) expect(verifyWebhookSignature(acct.secret!, h.headers['x-mm-timestamp'] as string, h.raw, h.headers['x-mm-signature'] as string)).toBe(true);
    for (const h of hooks) expect(t.api.webhookProblem('inboundMessage', h.body)).toBeNull();
  });

  describe('retries', () => {
    const deliveries = async (acct: TestAccount) => (await t.api.get('/v1/webhook-deliveries', { auth: acct.auth })).body.results as Array<Record<string, unknown>>;

    it('retries after 500s with the same bytes and a fresh timestamp, logging every attempt', async () => {
      const acct = await accountWithHooks({ inbound: receiver.url('/flaky'), secret: true });
      receiver.respondNext({ status: 500 }, { status: 503 });
      await t.api.post('/v1/test-inbound', { auth: acct.auth, body: { from: '0412000015', message: 'again' } });
      await until(async () => (await deliveries(acct)).some((d) => d.delivered === true), 'eventual delivery');
      const log = (await deliveries(acct)).reverse();
      expect(log.map((d) => [d.attempt, d.response_status, d.error, d.delivered])).toEqual([
        [1, 500, 'HTTP 500', false],
        [2, 503, 'HTTP 503', false],
        [3, 200, '', true],
      ]);
      expect(new Set(log.map((d) => d.event_id)).size).toBe(1);
      expect(log[0]).toMatchObject({ event: 'inbound', url: receiver.url('/flaky') });
      // Three arrivals (two answered 5xx): the same bytes each time, each signed for its own timestamp.
      const arrived = receiver.received.filter((h) => h.body?.message === 'again');
      expect(arrived).toHaveLength(3);
      expect(new Set(arrived.map((h) => h.raw)).size).toBe(1);
      // One event id on every attempt, the one the deliveries list names, so the receiver can deduplicate.
      expect(arrived.map((h) => h.headers['x-mm-event-id'])).toEqual([String(log[0].event_id), String(log[0].event_id), String(log[0].event_id)]);
      for (const h of arrived) expect(independentlyValid(acct.secret!, h.headers['x-mm-timestamp'] as string, h.raw, h.headers['x-mm-signature'] as string)).toBe(true);
      expect(Number(arrived[2].headers['x-mm-timestamp'])).toBeGreaterThanOrEqual(Number(arrived[0].headers['x-mm-timestamp']));
    });

    it('retries after a timeout and after a refused connection', async () => {
      const acct = await accountWithHooks({ inbound: receiver.url('/slow') });
      receiver.respondNext({ delayMs: 1500 });
      await t.api.post('/v1/test-inbound', { auth: acct.auth, body: { from: '0412000016', message: 'slowly' } });
      await until(async () => (await deliveries(acct)).some((d) => d.delivered === true), 'delivery after the timeout');
      expect((await deliveries(acct)).reverse()[0]).toMatchObject({ attempt: 1, response_status: null, error: 'timeout after 800 ms', delivered: false });

      const refused = await accountWithHooks({ inbound: 'http://127.0.0.1:1/closed' });
      await t.api.post('/v1/test-inbound', { auth: refused.auth, body: { from: '0412000017', message: 'anyone?' } });
      await until(async () => (await deliveries(refused)).length === 4, 'the first attempt and three retries');
      const log = (await deliveries(refused)).reverse();
      expect(log.map((d) => d.attempt)).toEqual([1, 2, 3, 4]);
      for (const d of log) expect(d).toMatchObject({ delivered: false, response_status: null, error: expect.stringContaining('ECONNREFUSED') });
      const [{ state }] = await t.app.get(DataSource).query('SELECT state FROM webhook_events WHERE account_id = $1', [refused.accountId]);
      expect(state).toBe('failed');
    });

    it('counts a 2xx as delivered when its body never ends or is far too long, and keeps the query string', async () => {
      const acct = await accountWithHooks({ inbound: receiver.url('/bodies?token=abc&n=1') });
      receiver.respondNext({ status: 200, endless: true }, { status: 202, bodyBytes: 1024 * 1024 });
      // One at a time, so each meets its own answer.
      for (const message of ['endless', 'huge']) {
        await t.api.post('/v1/test-inbound', { auth: acct.auth, body: { from: '0412000018', message } });
        await until(() => receiver.received.some((h) => h.body?.message === message), `the ${message} webhook to arrive`);
      }
      await until(async () => (await deliveries(acct)).length === 2, 'both attempts recorded');
      const log = (await deliveries(acct)).sort((a, b) => (a.response_status as number) - (b.response_status as number));
      expect(log.map((d) => [d.attempt, d.response_status, d.error, d.delivered])).toEqual([
        [1, 200, '', true],
        [1, 202, '', true],
      ]);
      const arrived = receiver.received.filter((h) => h.body?.message === 'endless' || h.body?.message === 'huge');
      expect(arrived.map((h) => [h.body.message, h.path])).toEqual([
        ['endless', '/bodies?token=abc&n=1'],
        ['huge', '/bodies?token=abc&n=1'],
      ]);
    });

    it('delivers every event once the receiver comes back up', async () => {
      const down = new WebhookReceiver();
      const port = await down.start();
      await down.stop();
      const acct = await accountWithHooks({ status: `http://127.0.0.1:${port}/status` });
      const sent = await send(
        acct,
        Array.from({ length: 10 }, (_, i) => ({ to: `04120001${String(i).padStart(2, '0')}`, message: 'batch', sender: 'Brand' })),
      );
      await until(async () => (await deliveries(acct)).length >= 10, 'failed first attempts');
      await down.start(port);
      try {
        await until(() => down.received.length === 10, 'all ten after the receiver came back');
        expect(new Set(down.received.map((h) => h.body.message_id))).toEqual(new Set(sent.results.map((r: { message_id: string }) => r.message_id)));
      } finally {
        await down.stop();
      }
    });

    it('applies a URL changed while an event waits to its next attempt, and drops events when switched off', async () => {
      const other = new WebhookReceiver();
      await other.start();
      try {
        const acct = await accountWithHooks({ inbound: 'http://127.0.0.1:1/closed' });
        await t.api.post('/v1/test-inbound', { auth: acct.auth, body: { from: '0412000018', message: 'redirect me' } });
        await until(async () => (await deliveries(acct)).length >= 1, 'a failed attempt');
        await t.api.patch('/v1/webhooks', { auth: acct.auth, body: { inbound: other.url('/new') } });
        await until(() => other.received.length === 1, 'delivery to the new URL');
        expect(other.received[0].body.message).toBe('redirect me');

        const off = await accountWithHooks({ inbound: 'http://127.0.0.1:1/closed' });
        await t.api.post('/v1/test-inbound', { auth: off.auth, body: { from: '0412000019', message: 'drop me' } });
        await until(async () => (await deliveries(off)).length >= 1, 'a failed attempt');
        await t.api.patch('/v1/webhooks', { auth: off.auth, body: { inbound: '' } });
        await until(
          async () => (await t.app.get(DataSource).query(`SELECT state FROM webhook_events WHERE account_id = $1`, [off.accountId]))[0].state === 'discarded',
          'the event to be dropped',
        );
      } finally {
        await other.stop();
      }
    });
  });

  it('does not let a slow receiver hold back another account’s webhooks', async () => {
    const slow = new WebhookReceiver();
    slow.setDefault({ status: 200, delayMs: 700 });
    await slow.start();
    try {
      const patient = await accountWithHooks({ status: slow.url('/slow') });
      const hurried = await accountWithHooks({ status: receiver.url('/fast') });
      await send(
        patient,
        Array.from({ length: 120 }, (_, i) => ({ to: `0412002${String(i).padStart(3, '0')}`, message: 'slow lane', sender: 'Brand' })),
      );
      await until(() => slow.received.length >= 1, 'the slow receiver to get work');
      const fast = await send(
        hurried,
        Array.from({ length: 5 }, (_, i) => ({ to: `041200300${i}`, message: 'fast lane', sender: 'Brand' })),
      );
      const ids = new Set(fast.results.map((r: { message_id: string }) => r.message_id));
      await until(() => receiver.received.filter((h) => ids.has(h.body?.message_id)).length === 5, 'the other account’s webhooks');
      // The slow receiver (32 at a time, 0.7 s each) still has most of its 120 to go.
      expect(slow.received.length).toBeLessThan(120);
    } finally {
      await slow.stop();
    }
  });

  it('lists deliveries newest first, filtered by event, with the usual pagination and texts', async () => {
    const acct = await accountWithHooks({ inbound: receiver.url('/i'), status: receiver.url('/s') });
    await t.api.post('/v1/test-inbound', { auth: acct.auth, body: { from: '0412000020', message: 'one' } });
    await send(acct, [{ to: '0412000021', message: 'two', sender: 'Brand' }]);
    await until(async () => (await t.api.get('/v1/webhook-deliveries', { auth: acct.auth })).body.total === 2, 'both deliveries');
    expect((await t.api.get('/v1/webhook-deliveries', { auth: acct.auth, query: { event: 'inbound' } })).body.results.map((d: { event: string }) => d.event)).toEqual(['inbound']);
    expect((await t.api.get('/v1/webhook-deliveries', { auth: acct.auth, query: { limit: 1 } })).body).toMatchObject({
      total: 2,
      limit: 1,
      offset: 0,
      results: [{ event: 'status' }],
    });
    expect((await t.api.get('/v1/webhook-deliveries', { auth: acct.auth, query: { event: 'receipt' } })).body).toEqual({
      error: 'Invalid event filter. Valid values: status, inbound',
    });
    const other = await createAccount(t.app);
    expect((await t.api.get('/v1/webhook-deliveries', { auth: other.auth })).body.total).toBe(0);
  });
});
