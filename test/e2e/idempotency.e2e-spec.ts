import { DataSource } from 'typeorm';
import { ApiKeysService } from '../../src/accounts/api-keys.service';
import { IdempotencyService } from '../../src/idempotency/idempotency.service';
import { basicAuth, createAccount, startTestApp, TestAccount, TestApp } from '../support/test-app';

describe('Idempotency-Key on POST /v1/messages', () => {
  let t: TestApp;
  let acct: TestAccount;
  const batch = {
    messages: [
      { to: '0412000001', message: 'Hello', sender: 'Brand' },
      { to: '0412000002', message: 'World', sender: 'Brand' },
    ],
  };

  beforeAll(async () => {
    // Acceptance only: no delivery workers in this process, so statuses stay as the send left them.
    t = await startTestApp({ inflightLimit: 50, appRole: 'api' });
  });
  beforeEach(async () => {
    acct = await createAccount(t.app, { credits: 100, senders: ['Brand'] });
  });
  afterAll(() => t.close());

  const send = (key: string | undefined, body: unknown = batch, auth = acct.auth) =>
    t.api.post('/v1/messages', { auth, body, headers: key === undefined ? {} : { 'idempotency-key': key } });
  const balance = async () => (await t.api.get('/v1/account', { auth: acct.auth })).body.credit_balance as number;
  const messageCount = async (a = acct) => (await t.api.get('/v1/messages', { auth: a.auth })).body.total as number;

  it('replays the original response byte for byte with Idempotency-Replay: true, without a new send or charge', async () => {
    const first = await send('order-1');
    expect(first.status).toBe(200);
    expect(first.headers['idempotency-replay']).toBeUndefined();
    const again = await send('order-1');
    expect(again.status).toBe(200);
    expect(again.headers['idempotency-replay']).toBe('true');
    expect(again.headers['content-type']).toBe(first.headers['content-type']);
    expect(again.text).toBe(first.text);
    expect(await balance()).toBe(98);
    expect(await messageCount()).toBe(2);
  });

  it('treats the same JSON with keys in another order as the same body', async () => {
    await send('order-2', { messages: [{ to: '0412000001', message: 'Hi', sender: 'Brand' }], enable_unicode: false });
    const again = await t.api.post('/v1/messages', {
      auth: acct.auth,
      rawBody: '{"enable_unicode":false,"messages":[{"sender":"Brand","message":"Hi","to":"0412000001"}]}',
      headers: { 'idempotency-key': 'order-2', 'content-type': 'application/json' },
    });
    expect(again.headers['idempotency-replay']).toBe('true');
  });

  it('answers 422 when the key is reused with a different body', async () => {
    await send('order-3');
    const res = await send('order-3', { messages: [{ to: '0412000009', message: 'Different', sender: 'Brand' }] });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ error: 'Idempotency-Key was reused with a different request payload' });
    expect(await messageCount()).toBe(2);
  });

  it('answers 400 for a key over 255 characters and accepts one of exactly 255', async () => {
    const long = await send('k'.repeat(256));
    expect(long.status).toBe(400);
    expect(long.body).toEqual({ error: 'Idempotency-Key must be at most 255 characters' });
    expect((await send('k'.repeat(255))).status).toBe(200);
  });

  it('executes exactly one of twenty concurrent requests with one key; the rest replay it', async () => {
    const results = await Promise.all(Array.from({ length: 20 }, () => send('burst')));
    expect(results.map((r) => r.status)).toEqual(Array(20).fill(200));
    expect(new Set(results.map((r) => r.text)).size).toBe(1);
    expect(results.filter((r) => r.headers['idempotency-replay'] === 'true')).toHaveLength(19);
    expect(await messageCount()).toBe(2);
    expect(await balance()).toBe(98);
    const [{ count }] = await t.app.get(DataSource).query(`SELECT count(*)::int AS count FROM credit_ledger WHERE account_id = $1 AND kind = 'debit'`, [acct.accountId]);
    expect(count).toBe(1);
  });

  it('scopes keys per API key: the same key from two keys makes two sends', async () => {
    const second = await t.app.get(ApiKeysService).issue(acct.accountId, 'second');
    const a = await send('shared-key');
    const b = await send('shared-key', batch, basicAuth(second.username, second.password));
    expect(b.headers['idempotency-replay']).toBeUndefined();
    expect(b.body.send_id).not.toBe(a.body.send_id);
    expect(await messageCount()).toBe(4);
  });

  it('remembers only successes: a request that failed may be retried with its key', async () => {
    const poor = await createAccount(t.app, { credits: 1, senders: ['Brand'] });
    const failed = await send('retry-me', batch, poor.auth);
    expect(failed.status).toBe(403);
    await t.app.get(DataSource).query('UPDATE accounts SET credit_balance = credit_balance + 500 WHERE id = $1', [poor.accountId]);
    await t.app.get(DataSource).query(`INSERT INTO credit_ledger (account_id, kind, amount, reason) VALUES ($1, 'grant', 500, 'test top-up')`, [poor.accountId]);
    const retried = await send('retry-me', batch, poor.auth);
    expect(retried.status).toBe(200);
    expect(retried.headers['idempotency-replay']).toBeUndefined();
    expect(await messageCount(poor)).toBe(2);
  });

  it('does not remember validation failures either', async () => {
    expect((await send('bad-then-good', { messages: [] })).status).toBe(400);
    expect((await send('bad-then-good')).headers['idempotency-replay']).toBeUndefined();
  });

  it('treats a key as new once its record has expired, and purges expired records', async () => {
    const ttlMs = 90_000;
    const short = await startTestApp({ idempotencyTtlMs: ttlMs, appRole: 'api' });
    const ds = short.app.get(DataSource);
    const post = (key: string) => short.api.post('/v1/messages', { auth: acct.auth, body: batch, headers: { 'idempotency-key': key } });
    const mine = `api_key_id IN (SELECT id FROM api_keys WHERE account_id = $1) AND key = $2`;
    // Expiry is PostgreSQL's now() against expires_at: rather than wait out the TTL, move this
    // account's record back by exactly its TTL, as if that much time had passed.
    const expire = (key: string) =>
      ds.query(`UPDATE idempotency_keys SET created_at = created_at - $3 * interval '1 millisecond', expires_at = expires_at - $3 * interval '1 millisecond' WHERE ${mine}`, [
        acct.accountId,
        key,
        ttlMs,
      ]);
    try {
      const first = await post('short-lived');
      const [{ ttl }] = await ds.query(`SELECT round(extract(epoch FROM expires_at - created_at) * 1000)::int AS ttl FROM idempotency_keys WHERE ${mine}`, [
        acct.accountId,
        'short-lived',
      ]);
      expect(ttl).toBe(ttlMs); // the record lives for the configured TTL
      expect((await post('short-lived')).headers['idempotency-replay']).toBe('true'); // and replays until then
      await expire('short-lived');
      const after = await post('short-lived');
      expect(after.headers['idempotency-replay']).toBeUndefined();
      expect(after.body.send_id).not.toBe(first.body.send_id);
      await post('to-purge');
      await expire('short-lived');
      await expire('to-purge');
      expect(await short.app.get(IdempotencyService).purgeExpired()).toBeGreaterThanOrEqual(2);
      const [{ count }] = await ds.query(`SELECT count(*)::int AS count FROM idempotency_keys WHERE expires_at <= now()`);
      expect(count).toBe(0);
    } finally {
      await short.close();
    }
  });

  it('does not apply to list-send (the header is ignored)', async () => {
    const list_id = (await t.api.post('/v1/lists', { auth: acct.auth, body: { name: 'L' } })).body.list_id;
    await t.api.post('/v1/list-contacts', { auth: acct.auth, body: { list_id, number: '0412000050' } });
    const body = { list_id, sender: 'Brand', message: 'Hi' };
    const a = await t.api.post('/v1/list-send', { auth: acct.auth, body, headers: { 'idempotency-key': 'ls' } });
    const b = await t.api.post('/v1/list-send', { auth: acct.auth, body, headers: { 'idempotency-key': 'ls' } });
    expect(b.headers['idempotency-replay']).toBeUndefined();
    expect(b.body.send_id).not.toBe(a.body.send_id);
  });
});
