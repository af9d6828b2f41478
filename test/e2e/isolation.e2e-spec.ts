import { DataSource } from 'typeorm';
import { DEFAULT_KEY_ACCESS } from '../../src/accounts/api-key-access';
import { ApiKeysService } from '../../src/accounts/api-keys.service';
import { STORED_API_SCOPES } from '../../src/common/auth/api-scopes';
import { basicAuth, createAccount, startTestApp, TestAccount, TestApp } from '../support/test-app';

/** Another account's ids must behave exactly like ids that do not exist, on every endpoint. */
describe('Account isolation', () => {
  let t: TestApp;
  let owner: TestAccount;
  let intruder: TestAccount;
  let contactId: number;
  let listId: number;

  beforeAll(async () => {
    t = await startTestApp();
  });
  // Each test gets its own owner (with data) and intruder, so none depends on what another did.
  beforeEach(async () => {
    owner = await createAccount(t.app);
    intruder = await createAccount(t.app);
    contactId = (await t.api.post('/v1/contacts', { auth: owner.auth, body: { number: '0412400001', first_name: 'Secret' } })).body.contact_id;
    listId = (await t.api.post('/v1/lists', { auth: owner.auth, body: { name: 'Private' } })).body.list_id;
    await t.api.post('/v1/list-contacts', { auth: owner.auth, body: { list_id: listId, contact_id: contactId } });
    await t.api.post('/v1/unsubscribes', { auth: owner.auth, body: { number: '0412400002' } });
  });
  afterAll(() => t.close());

  /** Every write the intruder may try on the owner's data, with the answer it must get. */
  const intruderWrites: Array<[string, string, string, () => Record<string, unknown>, number, unknown]> = [
    ['PATCH /v1/contacts', 'PATCH', '/v1/contacts', () => ({ body: { contact_id: contactId, first_name: 'Hacked' } }), 404, { error: 'Contact not found' }],
    ['DELETE /v1/contacts', 'DELETE', '/v1/contacts', () => ({ body: { contact_id: contactId } }), 200, () => ({ status: 'complete', contact_id: contactId, removed: false })],
    ['PATCH /v1/lists', 'PATCH', '/v1/lists', () => ({ body: { list_id: listId, name: 'Mine' } }), 404, { error: 'List not found' }],
    ['DELETE /v1/lists', 'DELETE', '/v1/lists', () => ({ body: { list_id: listId, delete_contacts: true } }), 404, { error: 'List not found' }],
    ['GET /v1/list-contacts', 'GET', '/v1/list-contacts', () => ({ query: { list_id: listId } }), 404, { error: 'List not found' }],
    ['POST /v1/list-contacts', 'POST', '/v1/list-contacts', () => ({ body: { list_id: listId, number: '0412400009' } }), 404, { error: 'List not found' }],
    ['DELETE /v1/list-contacts', 'DELETE', '/v1/list-contacts', () => ({ body: { list_id: listId, contact_id: contactId } }), 404, { error: 'List not found' }],
  ];

  async function expectOwnerDataUntouched(): Promise<void> {
    const contacts = (await t.api.get('/v1/contacts', { auth: owner.auth })).body.results;
    expect(contacts).toEqual([expect.objectContaining({ contact_id: contactId, first_name: 'Secret' })]);
    expect((await t.api.get('/v1/lists', { auth: owner.auth })).body.results).toEqual([expect.objectContaining({ list_id: listId, name: 'Private', contact_count: 1 })]);
    expect((await t.api.get('/v1/unsubscribes', { auth: owner.auth })).body.total).toBe(1);
  }

  it('shows the intruder none of the owner’s contacts, lists or unsubscribes', async () => {
    expect((await t.api.get('/v1/contacts', { auth: intruder.auth })).body).toMatchObject({ total: 0, results: [] });
    expect((await t.api.get('/v1/contacts', { auth: intruder.auth, query: { number: '0412400001' } })).body.total).toBe(0);
    expect((await t.api.get('/v1/lists', { auth: intruder.auth })).body.results).toEqual([]);
    expect((await t.api.get('/v1/unsubscribes', { auth: intruder.auth })).body.total).toBe(0);
  });

  it.each(intruderWrites)('answers %s on another account’s data as if it did not exist', async (_label, method, url, options, status, expected) => {
    const res = await t.api.request(method, url, { auth: intruder.auth, ...options() });
    expect(res.status).toBe(status);
    expect(res.body).toEqual(typeof expected === 'function' ? (expected as () => unknown)() : expected);
    await expectOwnerDataUntouched();
  });

  it('cannot add the owner’s contact to the intruder’s own list', async () => {
    const own = (await t.api.post('/v1/lists', { auth: intruder.auth, body: { name: 'Mine' } })).body.list_id;
    const res = await t.api.post('/v1/list-contacts', { auth: intruder.auth, body: { list_id: own, contact_id: contactId } });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'Contact not found' });
    await expectOwnerDataUntouched();
  });

  it('keeps lists, contacts and unsubscribes of the same names and numbers separate', async () => {
    const mine = await t.api.post('/v1/lists', { auth: intruder.auth, body: { name: 'Private' } });
    expect(mine.body).toMatchObject({ existing: false });
    expect(mine.body.list_id).not.toBe(listId);
    expect((await t.api.post('/v1/contacts', { auth: intruder.auth, body: { number: '0412400001' } })).status).toBe(200);
    expect((await t.api.post('/v1/unsubscribes', { auth: intruder.auth, body: { number: '0412400002' } })).body.added).toBe(true);
    expect((await t.api.delete('/v1/unsubscribes', { auth: intruder.auth, body: { number: '0412400002' } })).body.removed).toBe(true);
    await expectOwnerDataUntouched();
  });

  it('left the owner’s data untouched', async () => {
    // Every write the intruder may try, one after another in this test, then the owner's data as it was.
    for (const [, method, url, options] of intruderWrites) await t.api.request(method, url, { auth: intruder.auth, ...options() });
    await expectOwnerDataUntouched();
  });

  it('keeps sender identities to their account: senders, pending mobiles, registrations and the free number', async () => {
    await t.api.post('/v1/senders', { auth: owner.auth, body: { number: '0412400101' } });
    await t.api.post('/v1/sender-registrations', { auth: owner.auth, body: { sender: 'OwnerCo', business_name: 'Owner Co', abn: '51824753556', reason: 'Receipts' } });
    expect((await t.api.get('/v1/senders', { auth: intruder.auth })).body.results.map((s: { sender: string }) => s.sender)).toEqual(['TestBrand']);
    expect((await t.api.get('/v1/sender-registrations', { auth: intruder.auth })).body.total).toBe(0);
    for (const sender of ['OwnerCo', '0412400101']) {
      expect((await t.api.delete('/v1/senders', { auth: intruder.auth, body: { sender } })).body).toEqual({ error: 'Sender not found' });
    }
    expect((await t.api.get('/v1/sender-registrations', { auth: owner.auth })).body.results).toEqual([expect.objectContaining({ sender: 'OwnerCo', state: 'submitted' })]);
    // Each account has its own free-number claim: the owner's claim does not count against the intruder (here the inventory is empty for both).
    for (const acct of [owner, intruder]) {
      expect((await t.api.post('/v1/dedicated-numbers/free', { auth: acct.auth, body: { service_address: '1 Main St, Hobart TAS 7000' } })).body).toEqual({
        error: 'No dedicated number is available right now. Please try again later or contact support.',
      });
    }
  });

  describe('scoped keys of the same account', () => {
    /** Rows the account owns in every table a v1 operation writes, as one comparable snapshot. */
    async function footprint(accountId: number): Promise<Record<string, number>> {
      const tables = [
        'contacts',
        'contact_lists',
        'consent_records',
        'quiet_hours',
        'unsubscribes',
        'sends',
        'messages',
        'senders',
        'sender_registrations',
        'keyword_rules',
        'webhook_events',
        'credit_ledger',
        'contact_imports',
      ];
      const out: Record<string, number> = {};
      for (const table of tables) out[table] = Number((await t.app.get(DataSource).query(`SELECT count(*) FROM ${table} WHERE account_id = $1`, [accountId]))[0].count);
      const [account] = await t.app
        .get(DataSource)
        .query('SELECT credit_balance, webhook_status_url, webhook_inbound_url, webhook_secret IS NOT NULL AS secret FROM accounts WHERE id = $1', [accountId]);
      return {
        ...out,
        balance: Number(account.credit_balance),
        webhooks: [account.webhook_status_url, account.webhook_inbound_url].filter(Boolean).length,
        secret: account.secret ? 1 : 0,
      };
    }

    it('refuses every operation of the document to a key without its scope, with its text, and nothing changes', async () => {
      const document = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
      const operations: Array<[string, string, string]> = [];
      for (const [path, item] of Object.entries(document.paths as Record<string, Record<string, { 'x-required-scope'?: string }>>)) {
        for (const [method, op] of Object.entries(item)) if (op['x-required-scope']) operations.push([method.toUpperCase(), path, op['x-required-scope']]);
      }
      expect(operations.length).toBeGreaterThanOrEqual(45);
      const keys = t.app.get(ApiKeysService);
      const before = await footprint(owner.accountId);
      const answers: string[] = [];
      for (const [method, path, scope] of operations) {
        const key = await keys.issue(owner.accountId, `without ${scope}`, undefined, { ...DEFAULT_KEY_ACCESS, scopes: STORED_API_SCOPES.filter((s) => s !== scope) });
        const body =
          method === 'GET' ? undefined : { number: '0412400001', contact_id: contactId, list_id: listId, messages: [{ to: '0412400001', message: 'x', sender: 'TestBrand' }] };
        const res = await t.api.request(method, path, { auth: basicAuth(key.username, key.password), body, headers: { 'idempotency-key': `scope-${method}-${path}` } });
        const expected = scope === 'purchases' ? 'Purchases are not enabled for this API key' : `This API key does not have the ${scope} scope`;
        if (res.status !== 403 || res.body.error !== expected) answers.push(`${method} ${path} (${scope}): ${res.status} ${JSON.stringify(res.body)}`);
        // At most 10 active keys: each is revoked after its request.
        await keys.revoke(key.username);
      }
      expect(answers).toEqual([]);
      expect(await footprint(owner.accountId)).toEqual(before);
    });

    it('gives a key with only messages:read nothing to write on its own account', async () => {
      const key = await t.app.get(ApiKeysService).issue(owner.accountId, 'reader', undefined, { ...DEFAULT_KEY_ACCESS, scopes: ['messages:read'] });
      const auth = basicAuth(key.username, key.password);
      for (const [label, method, url, options] of intruderWrites) {
        const res = await t.api.request(method, url, { auth, ...options() });
        expect([label, res.status, res.body]).toEqual([label, 403, { error: 'This API key does not have the contacts scope' }]);
      }
      await expectOwnerDataUntouched();
      expect((await t.api.get('/v1/messages', { auth })).status).toBe(200);
    });
  });
});
