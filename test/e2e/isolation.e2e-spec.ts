import { createAccount, startTestApp, TestAccount, TestApp } from '../support/test-app';

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
});
