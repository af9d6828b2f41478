import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ProbeGate } from '../support/probe.module';
import { LogCapture } from '../support/log-capture';
import { createAccount, startTestApp, TestAccount, TestApp } from '../support/test-app';
import { until } from '../support/wait';

/** A raw request on its own connection, headers exactly as given (no body). */
function rawGet(port: number, path: string, headers: Record<string, string>, method = 'GET'): Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path, method, headers, agent: false }, (res) => {
      let text = '';
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
    });
    req.on('error', reject);
    req.end();
  });
}

const query = (params: Record<string, string>) => `/simple/send-sms?${new URLSearchParams(params).toString()}`;

describe('GET /simple/send-sms', () => {
  let t: TestApp;
  let port: number;
  let acct: TestAccount;
  const logs = new LogCapture();

  beforeAll(async () => {
    // Acceptance only (no workers), with the log lines captured to check the credentials never reach them.
    t = await startTestApp({ appRole: 'api', logLevel: 'info' }, { probe: true, logDestination: logs.stream });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.getHttpServer().address() as AddressInfo).port;
  });
  beforeEach(async () => {
    acct = await createAccount(t.app, { credits: 10, senders: ['Brand', '61400000001'] });
  });
  afterAll(() => t.close());

  const creds = () => ({ api_username: acct.username, api_password: acct.password });
  const balance = async () => (await t.api.get('/v1/account', { auth: acct.auth })).body.credit_balance as number;

  it('sends for a client that sends Basic auth, the query credentials and Content-Type: application/json on a bodiless GET', async () => {
    const res = await rawGet(port, query({ ...creds(), to: '0412 345 678', message: 'Your order is ready', sender: '0400 000 001', custom_ref: 'order-7' }), {
      authorization: acct.auth,
      'content-type': 'application/json',
      accept: 'application/json',
    });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toContain('application/json');
    expect(res.headers['cache-control']).toBe('no-store');
    const body = JSON.parse(res.text);
    expect(body).toEqual({
      status: 'complete',
      send_id: expect.any(Number),
      ignore_unsubscribes: false,
      total_cost: 1,
      results: [
        {
          to: '61412345678',
          message: 'Your order is ready',
          sender: '61400000001',
          custom_ref: 'order-7',
          status: 'success',
          cost: 1,
          message_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
          conversation: 0,
          scheduled_for: null,
        },
      ],
    });
    const stored = await t.api.get('/v1/messages', { auth: acct.auth, query: { message_id: body.results[0].message_id } });
    expect(stored.body.results[0]).toMatchObject({ to: '61412345678', sender: '61400000001', custom_ref: 'order-7', status: 'pending', send_id: body.send_id });
    expect(await balance()).toBe(9);
  });

  it('answers exactly what POST /v1/messages answers for the same message (same rules, same body)', async () => {
    const message = { to: '0412000001', message: 'Hi {first_name}{optout}', sender: 'Brand', custom_ref: 'same' };
    const simple = await t.api.get('/simple/send-sms', { auth: acct.auth, query: message });
    const batch = await t.api.post('/v1/messages', { auth: acct.auth, body: { messages: [message] } });
    // Each message gets its own per-recipient opt-out code: the same rule, a different code.
    const strip = (b: any) => ({ ...b, send_id: 0, results: b.results.map((r: any) => ({ ...r, message_id: '', message: r.message.replace(/\/o\/[0-9A-Za-z]{7}$/, '/o/CODE') })) });
    expect(simple.status).toBe(200);
    expect(simple.body.results[0].message).toMatch(/^Hi {2}OptOut http:\/\/localhost:3000\/o\/[0-9A-Za-z]{7}$/);
    expect(strip(simple.body)).toEqual(strip(batch.body));
  });

  it('takes the credentials from the query alone, or from Basic auth alone', async () => {
    const fromQuery = await t.api.get('/simple/send-sms', { query: { ...creds(), to: '0412000002', message: 'Hi', sender: 'Brand' } });
    expect([fromQuery.status, fromQuery.body.results[0].status]).toEqual([200, 'success']);
    const fromBasic = await t.api.get('/simple/send-sms', { auth: acct.auth, query: { to: '0412000003', message: 'Hi', sender: 'Brand' } });
    expect([fromBasic.status, fromBasic.body.results[0].status]).toEqual([200, 'success']);
  });

  it('answers a bad message with its per-message error inside a 200, like a batch entry, charging nothing', async () => {
    const res = await t.api.get('/simple/send-sms', { auth: acct.auth, query: { to: '0298765432', message: 'Hi', sender: 'Brand' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ total_cost: 0, results: [{ to: '0298765432', status: 'error', error: 'Invalid phone number format' }] });
    const noSender = await t.api.get('/simple/send-sms', { auth: acct.auth, query: { to: '0412000004', message: 'Hi', sender: 'NotMine' } });
    expect(noSender.body.results[0]).toMatchObject({ status: 'error', error: 'Invalid sender. You do not have permission to use this sender' });
    expect(await balance()).toBe(10);
  });

  // Every answer is never to be cached, refusals by the guards (before the handler) included.
  describe('the v1 envelopes, each with Cache-Control: no-store', () => {
    it.each([
      ['no credentials', {}, 'Authentication required'],
      ['only a username', { api_username: 'api_x' }, 'Authentication required'],
      ['a wrong password', { api_username: 'api_x', api_password: 'nope' }, 'Invalid API username or password'],
    ])('answers 401 for %s, with WWW-Authenticate', async (_, credentials, error) => {
      const res = await t.api.get('/simple/send-sms', { query: { ...credentials, to: '0412000005', message: 'Hi', sender: 'Brand' } });
      expect([res.status, res.body, res.headers['www-authenticate'], res.headers['cache-control']]).toEqual([401, { error }, 'Basic realm="api"', 'no-store']);
    });

    it('answers 403 when the message cannot be paid for, storing nothing', async () => {
      const poor = await createAccount(t.app, { credits: 0, senders: ['Brand'] });
      const res = await t.api.get('/simple/send-sms', { auth: poor.auth, query: { to: '0412000006', message: 'Hi', sender: 'Brand' } });
      expect([res.status, res.body, res.headers['cache-control']]).toEqual([403, { error: 'Insufficient credits to send the batch of messages' }, 'no-store']);
      expect((await t.api.get('/v1/messages', { auth: poor.auth })).body.total).toBe(0);
    });

    it('answers 429 with Retry-After: 1 when the account has 5 requests in flight', async () => {
      const gate = t.app.get(ProbeGate);
      const held = Array.from({ length: 5 }, () => t.api.get('/v1/test-probe/hold', { auth: acct.auth }));
      try {
        await until(() => gate.holding === 5, 'five requests in their handlers');
        const res = await t.api.get('/simple/send-sms', { query: { ...creds(), to: '0412000007', message: 'Hi', sender: 'Brand' } });
        expect([res.status, res.body, res.headers['retry-after'], res.headers['cache-control']]).toEqual([
          429,
          { error: 'Too many concurrent requests. Please wait.' },
          '1',
          'no-store',
        ]);
      } finally {
        gate.releaseAll();
        await Promise.all(held);
      }
    });

    it('answers HEAD 405 (Allow: GET) before anything runs, so a link checker sends nothing', async () => {
      const res = await rawGet(port, query({ ...creds(), to: '0412000008', message: 'Hi', sender: 'Brand' }), {}, 'HEAD');
      expect([res.status, res.headers.allow, res.headers['cache-control']]).toEqual([405, 'GET', 'no-store']);
      expect((await t.api.get('/v1/messages', { auth: acct.auth })).body.total).toBe(0);
    });
  });

  it('writes no credential from the query string into any log line', async () => {
    const res = await rawGet(port, query({ ...creds(), to: '0412000009', message: 'Hi', sender: 'Brand' }), { 'x-request-id': `simple-${acct.accountId}` });
    expect(res.status).toBe(200);
    await t.api.get('/simple/send-sms', { query: { api_username: acct.username, api_password: 'wrong-password-1', to: '0412000009', message: 'Hi', sender: 'Brand' } });
    const all = logs.raw.join('');
    expect(all).not.toContain(acct.password);
    expect(all).not.toContain('wrong-password-1');
    expect(all).not.toContain(acct.username);
    const line = logs.withRequestId(`simple-${acct.accountId}`).find((l) => l.msg === 'request completed');
    expect(line).toMatchObject({ accountId: acct.accountId, status: 200, route: '/simple/send-sms' });
    expect(line!.url).toContain('api_username=[redacted]&api_password=[redacted]&to=0412000009');
  });
});
