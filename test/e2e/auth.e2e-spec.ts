import { Writable } from 'node:stream';
import { ApiKeysService } from '../../src/accounts/api-keys.service';
import { basicAuth, createAccount, startTestApp, TestAccount, TestApp } from '../support/test-app';

describe('Basic authentication', () => {
  let t: TestApp;
  let account: TestAccount;
  const logLines: string[] = [];

  beforeAll(async () => {
    const capture = new Writable({
      write(chunk, _enc, done) {
        logLines.push(chunk.toString());
        done();
      },
    });
    t = await startTestApp({ logLevel: 'trace' }, { probe: true, logDestination: capture });
  });
  // Its own account per test: one test issues and revokes keys on it.
  beforeEach(async () => {
    account = await createAccount(t.app);
  });
  afterAll(() => t.close());

  const routes = ['/v1/account', '/v1/senders'];

  it.each(routes)('answers 401 Authentication required with WWW-Authenticate when %s gets no Authorization header', async (url) => {
    const res = await t.api.get(url);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: 'Authentication required' });
    expect(res.headers['www-authenticate']).toBe('Basic realm="api"');
  });

  it.each([
    ['another scheme', 'Bearer abc'],
    ['no credentials after Basic', 'Basic '],
    ['invalid base64', 'Basic !!!notbase64'],
    ['no colon in the pair', `Basic ${Buffer.from('justauser').toString('base64')}`],
    ['an empty password', `Basic ${Buffer.from('user:').toString('base64')}`],
    ['an empty username', `Basic ${Buffer.from(':pass').toString('base64')}`],
  ])('answers 401 Authentication required for a malformed header (%s)', async (_case, header) => {
    const res = await t.api.get('/v1/account', { headers: { authorization: header } });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: 'Authentication required' });
    expect(res.headers['www-authenticate']).toBe('Basic realm="api"');
  });

  it('answers 401 Invalid API username or password for a wrong password', async () => {
    const res = await t.api.get('/v1/account', { auth: basicAuth(account.username, `${account.password}x`) });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: 'Invalid API username or password' });
    expect(res.headers['www-authenticate']).toBe('Basic realm="api"');
  });

  it('answers 401 Invalid API username or password for an unknown username', async () => {
    const res = await t.api.get('/v1/account', { auth: basicAuth('api_nobody', account.password) });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: 'Invalid API username or password' });
  });

  it('accepts the scheme name in any case', async () => {
    const res = await t.api.get('/v1/account', { headers: { authorization: account.auth.replace('Basic', 'basic') } });
    expect(res.status).toBe(200);
  });

  it('refuses a revoked key on its next request, on this instance and on another one', async () => {
    const other = await startTestApp();
    try {
      const victim = await createAccount(t.app);
      expect((await t.api.get('/v1/account', { auth: victim.auth })).status).toBe(200);
      expect((await other.api.get('/v1/account', { auth: victim.auth })).status).toBe(200);

      await other.app.get(ApiKeysService).revoke(victim.username);

      for (const api of [t.api, other.api]) {
        const res = await api.get('/v1/account', { auth: victim.auth });
        expect(res.status).toBe(401);
        expect(res.body).toEqual({ error: 'Invalid API username or password' });
      }
    } finally {
      await other.close();
    }
  });

  it('keeps working keys of the same account after another key is revoked', async () => {
    const second = await t.app.get(ApiKeysService).issue(account.accountId, 'second');
    await t.app.get(ApiKeysService).revoke(second.username);
    expect((await t.api.get('/v1/account', { auth: basicAuth(second.username, second.password) })).status).toBe(401);
    expect((await t.api.get('/v1/account', { auth: account.auth })).status).toBe(200);
  });

  it('never writes credentials or the Authorization header to the log', async () => {
    logLines.length = 0;
    await t.api.get('/v1/account', { auth: account.auth });
    await t.api.get('/v1/account', { auth: basicAuth(account.username, 'wrong-password-value') });
    await t.api.post('/v1/test-probe/fail', { auth: account.auth, body: {} });
    const log = logLines.join('');
    expect(logLines.length).toBeGreaterThan(3); // the requests were logged at all
    expect(log).toContain('probe failure with secret detail'); // the 500's cause is logged
    expect(log).not.toContain(account.password);
    expect(log).not.toContain('wrong-password-value');
    expect(log).not.toContain(account.auth.slice('Basic '.length));
    expect(log.toLowerCase()).not.toMatch(/"authorization":"basic/);
  });
});
