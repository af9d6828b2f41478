import http from 'node:http';
import Redis from 'ioredis';
import type { AddressInfo } from 'node:net';
import { InflightLimiter } from '../../src/common/concurrency/inflight-limiter';
import { ProbeGate } from '../support/probe.module';
import { createAccount, startTestApp, TestAccount, TestApp } from '../support/test-app';

/** A real HTTP request on its own connection, so a test can abort it mid-flight. */
function send(port: number, path: string, auth: string) {
  const req = http.request({ host: '127.0.0.1', port, path, method: 'GET', headers: { authorization: auth }, agent: false });
  const done = new Promise<{ status: number; body: any }>((resolve, reject) => {
    req.on('response', (res) => {
      let text = '';
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : undefined }));
    });
    req.on('error', reject);
  });
  done.catch(() => undefined); // aborted requests reject; tests that abort do not await them
  req.end();
  return { req, done };
}

async function until(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('At most 5 requests in flight per account', () => {
  let t: TestApp;
  let port: number;
  let gate: ProbeGate;
  let a: TestAccount;
  let b: TestAccount;

  beforeAll(async () => {
    t = await startTestApp({}, { probe: true });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.getHttpServer().address() as AddressInfo).port;
    gate = t.app.get(ProbeGate);
  });
  // Fresh accounts per test: their in-flight slots live in Redis and must not carry over between tests.
  beforeEach(async () => {
    a = await createAccount(t.app);
    b = await createAccount(t.app);
  });
  afterEach(() => gate.releaseAll());
  afterAll(() => t.close());

  it('answers the sixth 429 while another account is unaffected, and frees slots when clients abort', async () => {
    const held = Array.from({ length: 5 }, () => send(port, '/v1/test-probe/hold', a.auth));
    await until(() => gate.holding === 5, 'five requests in their handlers');

    const sixth = await t.api.get('/v1/account', { auth: a.auth });
    expect(sixth.status).toBe(429);
    expect(sixth.body).toEqual({ error: 'Too many concurrent requests. Please wait.' });
    expect(sixth.headers['retry-after']).toBe('1');

    const other = await t.api.get('/v1/account', { auth: b.auth });
    expect(other.status).toBe(200);

    held[0].req.destroy();
    held[1].req.destroy();
    // The aborted handlers are still parked in the gate: their slots were freed by the disconnect alone.
    await until(async () => (await t.api.get('/v1/account', { auth: a.auth })).status === 200, 'a slot freed by an aborted client');
    expect(gate.holding).toBe(5);

    gate.releaseAll();
    const finished = await Promise.all(held.slice(2).map((h) => h.done));
    expect(finished.map((r) => r.status)).toEqual([200, 200, 200]);
  });

  it('frees the slot when the response ends, so sequential requests never hit the limit', async () => {
    for (let i = 0; i < 20; i++) expect((await t.api.get('/v1/account', { auth: a.auth })).status).toBe(200);
  });

  it('frees the slot when the handler throws', async () => {
    for (let i = 0; i < 8; i++) expect((await t.api.post('/v1/test-probe/fail', { auth: a.auth, body: {} })).status).toBe(500);
    for (let i = 0; i < 8; i++)
      expect((await t.api.post('/v1/test-probe/echo', { auth: a.auth, rawBody: '{bad', headers: { 'content-type': 'application/json' } })).status).toBe(400);
    expect((await t.api.get('/v1/account', { auth: a.auth })).status).toBe(200);
  });

  it('shares the limit across instances through Redis', async () => {
    const other = await startTestApp();
    try {
      const held = Array.from({ length: 5 }, () => send(port, '/v1/test-probe/hold', a.auth));
      await until(() => gate.holding === 5, 'five requests in their handlers');
      const res = await other.api.get('/v1/account', { auth: a.auth });
      expect(res.status).toBe(429);
      gate.releaseAll();
      await Promise.all(held.map((h) => h.done));
      expect((await other.api.get('/v1/account', { auth: a.auth })).status).toBe(200);
    } finally {
      await other.close();
    }
  });

  it('keeps its slots under the configured key prefix in the configured Redis database', async () => {
    const url = `${process.env.REDIS_URL!.replace(/\/\d+$/, '')}/5`;
    const inDb5 = await startTestApp({ redisUrl: url }, { probe: true });
    const raw = new Redis(url);
    try {
      const c = await createAccount(inDb5.app);
      const held = Array.from({ length: 2 }, () => inDb5.api.get('/v1/test-probe/hold', { auth: c.auth }));
      await until(() => inDb5.app.get(ProbeGate).holding === 2, 'two requests in their handlers');
      expect(await raw.zcard(`${process.env.REDIS_PREFIX}:inflight:${c.accountId}`)).toBe(2);
      inDb5.app.get(ProbeGate).releaseAll();
      await Promise.all(held);
      await until(async () => (await raw.zcard(`${process.env.REDIS_PREFIX}:inflight:${c.accountId}`)) === 0, 'slots released');
    } finally {
      raw.disconnect();
      await inDb5.close();
    }
  });

  it('expires the slots of a crashed instance after the slot TTL', async () => {
    const short = await startTestApp({ inflightSlotTtlMs: 1000 }, { probe: true });
    const shortGate = short.app.get(ProbeGate);
    try {
      const c = await createAccount(short.app);
      const held = Array.from({ length: 5 }, () => short.api.get('/v1/test-probe/hold', { auth: c.auth }));
      await until(() => shortGate.holding === 5, 'five requests in their handlers');
      // Simulate a crash: the instance stops refreshing its slots without releasing them.
      short.app.get(InflightLimiter).onModuleDestroy();
      expect((await t.api.get('/v1/account', { auth: c.auth })).status).toBe(429);
      await until(async () => (await t.api.get('/v1/account', { auth: c.auth })).status === 200, 'crashed slots to expire', 5000);
      shortGate.releaseAll();
      await Promise.all(held);
    } finally {
      await short.close();
    }
  });
});
