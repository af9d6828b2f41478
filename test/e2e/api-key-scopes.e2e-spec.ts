import { DataSource } from 'typeorm';
import { ApiKeyAccess, DEFAULT_KEY_ACCESS } from '../../src/accounts/api-key-access';
import { ApiKeysService } from '../../src/accounts/api-keys.service';
import { STORED_API_SCOPES } from '../../src/common/auth/api-scopes';
import { basicAuth, createAccount, startTestApp, TestAccount, TestApp } from '../support/test-app';

/** Scoped API keys: scopes per operation, the client-address allow-list, and the daily message cap. */
describe('API key scopes, allow-lists and daily caps', () => {
  let t: TestApp;
  let db: DataSource;

  beforeAll(async () => {
    t = await startTestApp({ inflightLimit: 50, appRole: 'api' });
    db = t.app.get(DataSource);
  });
  afterAll(() => t.close());

  /** A second key on the account with the given access. */
  async function keyWith(acct: TestAccount, access: Partial<ApiKeyAccess>): Promise<string> {
    const key = await t.app.get(ApiKeysService).issue(acct.accountId, 'limited', undefined, { ...DEFAULT_KEY_ACCESS, ...access });
    return basicAuth(key.username, key.password);
  }
  const message = (to = '0412345678') => ({ to, message: 'Hello', sender: 'Brand' });
  const messageCount = async (accountId: number) => Number((await db.query('SELECT count(*) FROM messages WHERE account_id = $1', [accountId]))[0].count);
  const balance = async (accountId: number) => Number((await db.query('SELECT credit_balance FROM accounts WHERE id = $1', [accountId]))[0].credit_balance);

  describe('scopes', () => {
    // One operation of each scope, with a request that would succeed (or at least pass the scope) with it.
    // Every row has four entries: jest passes a `done` callback to a test whose row is shorter than its parameters.
    const operations: Array<[string, string, string, unknown]> = [
      ['messages:send', 'POST', '/v1/messages', { messages: [message()] }],
      ['messages:send', 'DELETE', '/v1/messages', { message_id: '7d0b6c0e-6f7a-4c41-9d5c-4a4c1e0d2a11' }],
      ['messages:read', 'GET', '/v1/messages', undefined],
      ['messages:read', 'GET', '/v1/inbound', undefined],
      ['contacts', 'POST', '/v1/contacts', { number: '0412000111' }],
      ['contacts', 'GET', '/v1/lists', undefined],
      ['contacts', 'GET', '/v1/unsubscribes', undefined],
      ['senders', 'GET', '/v1/senders', undefined],
      ['webhooks', 'GET', '/v1/webhooks', undefined],
      ['account', 'GET', '/v1/account', undefined],
      ['account', 'GET', '/v1/quiet-hours', undefined],
    ];

    it.each(operations)('a key without %s is refused %s %s with 403 and nothing is written', async (scope, method, url, body) => {
      const acct = await createAccount(t.app, { credits: 10, senders: ['Brand'] });
      const without = await keyWith(acct, { scopes: STORED_API_SCOPES.filter((s) => s !== scope) });
      const res = await t.api.request(method, url, { auth: without, body });
      expect([res.status, res.body]).toEqual([403, { error: `This API key does not have the ${scope} scope` }]);
      expect(await messageCount(acct.accountId)).toBe(0);
      expect(Number((await db.query('SELECT count(*) FROM contacts WHERE account_id = $1', [acct.accountId]))[0].count)).toBe(0);
      // The same request with only that scope passes the scope check (whatever the operation then answers).
      const only = await keyWith(acct, { scopes: [scope] });
      const allowed = await t.api.request(method, url, { auth: only, body });
      expect(allowed.status).not.toBe(403);
      expect(allowed.status).toBeLessThan(500);
    });

    it('refuses the simple send interface without messages:send, with query credentials too', async () => {
      const acct = await createAccount(t.app, { credits: 10, senders: ['Brand'] });
      const key = await t.app.get(ApiKeysService).issue(acct.accountId, 'reader', undefined, { ...DEFAULT_KEY_ACCESS, scopes: ['messages:read'] });
      const res = await t.api.get('/simple/send-sms', { query: { api_username: key.username, api_password: key.password, ...message() } });
      expect([res.status, res.body]).toEqual([403, { error: 'This API key does not have the messages:send scope' }]);
      expect(await messageCount(acct.accountId)).toBe(0);
    });

    it('gives a new key every scope but purchases, and a purchase without the switch keeps its own text', async () => {
      const acct = await createAccount(t.app, { credits: 10 });
      const [row] = await db.query('SELECT scopes, allowed_cidrs, daily_message_cap, purchases_enabled FROM api_keys WHERE username = $1', [acct.username]);
      expect(row).toEqual({
        scopes: ['messages:send', 'messages:read', 'contacts', 'senders', 'webhooks', 'account'],
        allowed_cidrs: [],
        daily_message_cap: null,
        purchases_enabled: false,
      });
      const res = await t.api.post('/v1/credit-purchases', { auth: acct.auth, body: { credits: 1000 }, headers: { 'idempotency-key': 'scope-1' } });
      expect([res.status, res.body]).toEqual([403, { error: 'Purchases are not enabled for this API key' }]);
    });

    it('gives a key inserted without scopes (as every key before the migration) every scope but purchases', async () => {
      const acct = await createAccount(t.app);
      const [row] = await db.query(
        `INSERT INTO api_keys (account_id, username, password_sha256, purchases_enabled) VALUES ($1, $2, decode(repeat('ab', 32), 'hex'), true) RETURNING scopes, purchases_enabled`,
        [acct.accountId, `legacy-${acct.accountId}`],
      );
      expect(row).toEqual({ scopes: [...STORED_API_SCOPES], purchases_enabled: true });
    });

    it('refuses an unknown scope or purchases in the stored scopes (the switch is the purchases scope)', async () => {
      const acct = await createAccount(t.app);
      await expect(db.query(`UPDATE api_keys SET scopes = '{purchases}' WHERE account_id = $1`, [acct.accountId])).rejects.toThrow(/api_keys_scopes_check/);
      await expect(db.query(`UPDATE api_keys SET scopes = '{everything}' WHERE account_id = $1`, [acct.accountId])).rejects.toThrow(/api_keys_scopes_check/);
    });
  });

  describe('client-address allow-list', () => {
    it('answers only from the listed IPv4 and IPv6 blocks', async () => {
      const acct = await createAccount(t.app);
      const auth = await keyWith(acct, { allowedCidrs: ['203.0.113.0/24', '2001:db8::/32'] });
      const from = async (remoteAddress: string) => {
        const res = await t.api.get('/v1/account', { auth, remoteAddress });
        return res.status === 200 ? 200 : [res.status, res.body.error];
      };
      const refused = [403, 'This API key cannot be used from this address'];
      expect(await from('203.0.113.9')).toBe(200);
      expect(await from('203.0.113.255')).toBe(200);
      expect(await from('::ffff:203.0.113.9')).toBe(200);
      expect(await from('2001:db8:1::7')).toBe(200);
      expect(await from('203.0.114.1')).toEqual(refused);
      expect(await from('127.0.0.1')).toEqual(refused);
      expect(await from('2001:db9::1')).toEqual(refused);
      expect(await from('::1')).toEqual(refused);
      // The account's other key has no list: any address.
      expect((await t.api.get('/v1/account', { auth: acct.auth, remoteAddress: '198.51.100.1' })).status).toBe(200);
    });

    it('refuses the address before the scope, so a refused address learns nothing about the key', async () => {
      const acct = await createAccount(t.app);
      const auth = await keyWith(acct, { scopes: ['contacts'], allowedCidrs: ['10.0.0.0/8'] });
      const res = await t.api.get('/v1/account', { auth, remoteAddress: '192.0.2.1' });
      expect([res.status, res.body]).toEqual([403, { error: 'This API key cannot be used from this address' }]);
    });

    it('uses X-Forwarded-For only when TRUST_PROXY trusts the peer', async () => {
      const acct = await createAccount(t.app);
      const auth = await keyWith(acct, { allowedCidrs: ['203.0.113.0/24'] });
      const headers = { 'x-forwarded-for': '203.0.113.20' };
      // This app trusts no proxy: the peer (127.0.0.1) is the client.
      expect((await t.api.get('/v1/account', { auth, headers })).status).toBe(403);
      const proxied = await startTestApp({ appRole: 'api', trustProxy: '127.0.0.1' });
      try {
        expect((await proxied.api.get('/v1/account', { auth, headers })).status).toBe(200);
        expect((await proxied.api.get('/v1/account', { auth, headers: { 'x-forwarded-for': '198.51.100.7' } })).status).toBe(403);
      } finally {
        await proxied.close();
      }
    });
  });

  describe('daily message cap', () => {
    const refusedAt = (cap: number) => [403, { error: `Daily message limit of ${cap} reached for this API key` }];

    it('counts messages, not requests, and refuses a send that would go over whole: nothing written or charged', async () => {
      const acct = await createAccount(t.app, { credits: 100, senders: ['Brand'] });
      const auth = await keyWith(acct, { dailyMessageCap: 5 });
      const send = (n: number) => t.api.post('/v1/messages', { auth, body: { messages: Array.from({ length: n }, (_, i) => message(`041200${String(i).padStart(4, '0')}`)) } });
      expect((await send(3)).status).toBe(200);
      expect(await balance(acct.accountId)).toBe(9700);
      const over = await send(3);
      expect([over.status, over.body]).toEqual(refusedAt(5));
      expect(await messageCount(acct.accountId)).toBe(3);
      expect(await balance(acct.accountId)).toBe(9700);
      expect((await send(2)).status).toBe(200);
      const full = await send(1);
      expect([full.status, full.body]).toEqual(refusedAt(5));
      expect(await messageCount(acct.accountId)).toBe(5);
      // A batch bigger than the cap is refused on its own; the account's uncapped key still sends.
      expect((await send(6)).body).toEqual(refusedAt(5)[1]);
      expect((await t.api.post('/v1/messages', { auth: acct.auth, body: { messages: [message()] } })).status).toBe(200);
    });

    it('lets concurrent sends through only up to the cap', async () => {
      const acct = await createAccount(t.app, { credits: 100, senders: ['Brand'] });
      const auth = await keyWith(acct, { dailyMessageCap: 10 });
      const body = { messages: [message('0412000001'), message('0412000002'), message('0412000003')] };
      const answers = await Promise.all(Array.from({ length: 8 }, () => t.api.post('/v1/messages', { auth, body })));
      const statuses = answers.map((r) => r.status).sort();
      expect(statuses).toEqual([200, 200, 200, 403, 403, 403, 403, 403]);
      for (const r of answers.filter((a) => a.status === 403)) expect(r.body).toEqual(refusedAt(10)[1]);
      expect(await messageCount(acct.accountId)).toBe(9);
      expect(await balance(acct.accountId)).toBe(10000 - 900);
      const debits = await db.query(`SELECT count(*)::int AS n FROM credit_ledger WHERE account_id = $1 AND amount < 0`, [acct.accountId]);
      expect(debits[0].n).toBe(3);
      const [counter] = await db.query('SELECT messages FROM api_key_daily_messages d JOIN api_keys k ON k.id = d.api_key_id WHERE k.account_id = $1', [acct.accountId]);
      expect(counter.messages).toBe(9);
    });

    it('covers list sends and the simple send, and starts again on the next day in the account’s time zone', async () => {
      const acct = await createAccount(t.app, { credits: 100, senders: ['Brand'] });
      const key = await t.app.get(ApiKeysService).issue(acct.accountId, 'capped', undefined, { ...DEFAULT_KEY_ACCESS, dailyMessageCap: 2 });
      const auth = basicAuth(key.username, key.password);
      const listId = (await t.api.post('/v1/lists', { auth, body: { name: 'Three' } })).body.list_id;
      for (const n of ['0412000011', '0412000012', '0412000013']) expect((await t.api.post('/v1/list-contacts', { auth, body: { list_id: listId, number: n } })).status).toBe(200);
      const listSend = await t.api.post('/v1/list-send', { auth, body: { list_id: listId, message: 'Hi', sender: 'Brand' } });
      expect([listSend.status, listSend.body]).toEqual(refusedAt(2));
      const simple = (to: string) => t.api.get('/simple/send-sms', { auth, query: message(to) });
      expect((await simple('0412000021')).status).toBe(200);
      expect((await simple('0412000022')).status).toBe(200);
      expect([(await simple('0412000023')).status, (await simple('0412000023')).body]).toEqual(refusedAt(2));
      // Yesterday's count (in Australia/Sydney, the account's zone) no longer counts.
      await db.query(`UPDATE api_key_daily_messages SET day = day - 1 WHERE api_key_id = $1`, [key.apiKeyId]);
      expect((await simple('0412000024')).status).toBe(200);
      const [row] = await db.query(
        `SELECT messages, day = (now() AT TIME ZONE a.time_zone)::date AS today FROM api_key_daily_messages d, accounts a WHERE d.api_key_id = $1 AND a.id = $2`,
        [key.apiKeyId, acct.accountId],
      );
      expect(row).toEqual({ messages: 1, today: true });
    });
  });
});
