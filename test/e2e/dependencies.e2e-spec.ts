import { TcpProxy } from '../support/tcp-proxy';
import { createAccount, startTestApp, TestApp } from '../support/test-app';

describe('Unreachable dependencies', () => {
  it('answers 503 with Retry-After, and /health 503, while Redis is unreachable', async () => {
    const t = await startTestApp({ redisUrl: 'redis://127.0.0.1:1', dependencyTimeoutMs: 300 });
    try {
      const account = await createAccount(t.app);
      const res = await t.api.get('/v1/account', { auth: account.auth });
      expect(res.status).toBe(503);
      expect(res.body).toEqual({ error: 'Service temporarily unavailable, please retry' });
      expect(res.headers['retry-after']).toBe('5');
      const health = await t.api.get('/health');
      expect(health.status).toBe(503);
      expect(health.body).toEqual({ error: 'Service temporarily unavailable, please retry' });
      // Liveness says only that the process answers: restarting it would not bring Redis back.
      const live = await t.api.get('/health/live');
      expect([live.status, live.body]).toEqual([200, { status: 'ok' }]);
    } finally {
      await t.close();
    }
  });

  describe('PostgreSQL cut off behind a proxy', () => {
    const proxy = new TcpProxy('127.0.0.1', 5432);
    let t: TestApp;

    beforeAll(async () => {
      const port = await proxy.start();
      const url = new URL(process.env.DATABASE_URL!);
      url.host = `127.0.0.1:${port}`;
      t = await startTestApp({ databaseUrl: url.toString(), dependencyTimeoutMs: 500 });
    });
    afterAll(async () => {
      await proxy.cut();
      await t.close();
    });

    it('answers 503 while the database is unreachable and recovers when it is back', async () => {
      const account = await createAccount(t.app);
      expect((await t.api.get('/v1/account', { auth: account.auth })).status).toBe(200);
      expect((await t.api.get('/health')).status).toBe(200);

      await proxy.cut();
      const down = await t.api.get('/v1/account', { auth: account.auth });
      expect(down.status).toBe(503);
      expect(down.body).toEqual({ error: 'Service temporarily unavailable, please retry' });
      expect(down.headers['retry-after']).toBe('5');
      expect((await t.api.get('/health')).status).toBe(503);
      expect((await t.api.get('/health/live')).status).toBe(200);

      await proxy.restore();
      let back = await t.api.get('/v1/account', { auth: account.auth });
      // The first request after the cut may meet a pooled connection that died with it; the pool then replaces it.
      if (back.status === 503) back = await t.api.get('/v1/account', { auth: account.auth });
      expect(back.status).toBe(200);
      expect((await t.api.get('/health')).status).toBe(200);
    });
  });
});
