import { emailFor, PASSWORD } from '../support/dashboard';
import { LogCapture } from '../support/log-capture';
import { PageClient } from '../support/page-client';
import { metricsText, sample } from '../support/metrics';
import { createAccount, startTestApp, TestApp } from '../support/test-app';
import { until } from '../support/wait';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('Request tracing and HTTP metrics', () => {
  let t: TestApp;
  const logs = new LogCapture();

  beforeAll(async () => {
    // API and workers in one process, so the dispatch lines of a request's messages land in the same capture.
    t = await startTestApp({ logLevel: 'info', testReceiptDelayMs: 200, sweepIntervalMs: 200 }, { probe: true, logDestination: logs.stream });
  });
  afterAll(() => t.close());

  describe('X-Request-Id', () => {
    it('keeps a printable id the caller sent', async () => {
      const res = await t.api.get('/health/live', { headers: { 'x-request-id': 'checkout 42/retry-1' } });
      expect(res.headers['x-request-id']).toBe('checkout 42/retry-1');
    });

    it.each([
      ['none', {}],
      ['one over 128 characters', { 'x-request-id': 'x'.repeat(129) }],
      ['one with a non-ASCII character', { 'x-request-id': 'naïve' }],
    ])('makes a UUID when the caller sent %s', async (_, headers) => {
      const res = await t.api.get('/health/live', { headers });
      expect(res.headers['x-request-id']).toMatch(UUID);
    });

    it('is on error answers too', async () => {
      const res = await t.api.get('/v1/account', { headers: { 'x-request-id': 'no-auth-1' } });
      expect([res.status, res.headers['x-request-id']]).toEqual([401, 'no-auth-1']);
    });
  });

  it('puts the request id and account on every line of the request and on the worker lines of the messages it created', async () => {
    const account = await createAccount(t.app, { test: true, senders: ['Brand'] });
    const reqId = `trace-${account.accountId}`;
    const res = await t.api.post('/v1/messages', {
      auth: account.auth,
      headers: { 'x-request-id': reqId },
      body: { messages: [{ to: '0412345678', message: 'Hello', sender: 'Brand' }] },
    });
    expect(res.status).toBe(200);
    const sendId = res.body.send_id as number;
    await until(() => logs.lines.some((l) => l.msg === 'dispatched' && l.sendId === sendId), 'the dispatch line of the send');

    const lines = logs.withRequestId(reqId);
    expect(lines.map((l) => l.msg)).toEqual(expect.arrayContaining(['request completed', 'dispatched']));
    for (const line of lines) expect([line.msg, line.accountId]).toEqual([line.msg, account.accountId]);
    expect(lines.find((l) => l.msg === 'request completed')).toMatchObject({ method: 'POST', url: '/v1/messages', route: '/v1/messages', status: 200 });
    expect(lines.find((l) => l.msg === 'dispatched')).toMatchObject({ sendId, messages: 1, partsSubmitted: 1, partsRefused: 0 });
  });

  describe('the request line', () => {
    // Tokens of single-use links and opt-out codes unsubscribe, sign up, set a password or confirm a number for whoever holds them.
    it.each([
      ['an opt-out code', '/o/Secr3tOptOutCode', '/o/[redacted]'],
      ['a sign-up link', '/sign-up/verify/Secr3tSignUpToken?from=mail', '/sign-up/verify/[redacted]?from=mail'],
      ['a set-password link', '/set-password/Secr3tPasswordToken', '/set-password/[redacted]'],
      ['an own-mobile confirmation link', '/senders/confirm/Secr3tConfirmToken', '/senders/confirm/[redacted]'],
      ['a percent-encoded path', '/%6F/Secr3tEncodedCode', '/o/[redacted]'],
      ['doubled slashes', '//sign-up//verify/Secr3tSlashToken', '/sign-up/verify/[redacted]'],
    ])('carries %s redacted', async (_, url, logged) => {
      const token = /Secr3t\w+/.exec(url)![0];
      const reqId = `redact-${token.length}-${Math.random()}`;
      const res = await t.app.inject({ method: 'GET', url, headers: { 'x-request-id': reqId } });
      expect(res.statusCode).toBeLessThan(500);
      expect(logs.withRequestId(reqId).find((l) => l.msg === 'request completed')).toMatchObject({ method: 'GET', url: logged });
      expect(logs.raw.filter((line) => line.includes(token))).toEqual([]);
    });

    it('cuts the sign-up token from the line of the request that opens it, while the sign-up mail logged without SMTP_URL keeps its link', async () => {
      const email = emailFor('logged-sign-up');
      const browser = new PageClient(t.app, { remoteAddress: '10.31.0.1' });
      await browser.get('/sign-up');
      const form = { name: 'Ada Baker', business_name: 'Harbour Bakery', email, password: PASSWORD, confirmation: PASSWORD };
      expect((await browser.post('/sign-up', form)).status).toBe(200);
      const mailed = () => logs.lines.find((l) => l.msg === 'email (not sent: no SMTP_URL)' && l.to === email);
      await until(() => mailed() !== undefined, 'the sign-up mail in the log');
      const link = /\/sign-up\/verify\/[A-Za-z0-9_-]+/.exec(mailed()!.body as string)![0];

      expect((await browser.get(link, { 'x-request-id': `open-${email}` })).status).toBe(200);
      expect(logs.withRequestId(`open-${email}`).find((l) => l.msg === 'request completed')).toMatchObject({ url: '/sign-up/verify/[redacted]', status: 200 });
      expect(logs.raw.filter((line) => line.includes(link))).toHaveLength(1);
    });
  });

  it('puts them on lines services write through Nest’s Logger while serving the request', async () => {
    const account = await createAccount(t.app);
    const res = await t.api.get('/v1/test-probe/log', { auth: account.auth, headers: { 'x-request-id': `probe-${account.accountId}` } });
    expect(res.status).toBe(200);
    expect(logs.withRequestId(`probe-${account.accountId}`).find((l) => l.msg === 'probe line')).toMatchObject({ context: 'Probe', accountId: account.accountId });
  });

  describe('GET /metrics', () => {
    const metrics = () => metricsText(t.app);

    it('exports labelled counters at 0 before their first event: each route’s successes and latency, webhook outcomes, failed parts', async () => {
      // Nothing in this file calls list-send, configures a webhook or sends to a failing number.
      const text = await metrics();
      expect(sample(text, 'http_requests_total{route="/v1/list-send",method="POST",status="200"}')).toBe(0);
      expect(sample(text, 'http_request_duration_seconds_count{route="/v1/list-send",method="POST"}')).toBe(0);
      expect(sample(text, 'sms_webhook_attempts_total{outcome="delivered"}')).toBe(0);
      expect(sample(text, 'sms_parts_settled_total{status="failed"}')).toBe(0);
    });

    it('counts answers by route template, method and status and times them by route and method', async () => {
      const account = await createAccount(t.app);
      const before = await metrics();
      const series = (status: number) => `http_requests_total{route="/v1/account",method="GET",status="${status}"}`;
      await t.api.get('/v1/account', { auth: account.auth });
      await t.api.get('/v1/account', { auth: account.auth });
      await t.api.get('/v1/account');
      await t.api.get('/no/such/path');
      const after = await metrics();
      expect((sample(after, series(200)) ?? 0) - (sample(before, series(200)) ?? 0)).toBe(2);
      expect((sample(after, series(401)) ?? 0) - (sample(before, series(401)) ?? 0)).toBe(1);
      expect(sample(after, 'http_requests_total{route="unmatched",method="GET",status="404"}')).toBeGreaterThanOrEqual(1);
      const count = 'http_request_duration_seconds_count{route="/v1/account",method="GET"}';
      expect((sample(after, count) ?? 0) - (sample(before, count) ?? 0)).toBe(3);
      expect(after).toContain('http_request_duration_seconds_bucket{le="0.005",route="/v1/account",method="GET"}');
    });
  });

  describe('GET /health/live', () => {
    it('answers 200 without authentication, checking nothing but the process', async () => {
      const res = await t.api.get('/health/live');
      expect([res.status, res.body]).toEqual([200, { status: 'ok' }]);
    });
  });
});
