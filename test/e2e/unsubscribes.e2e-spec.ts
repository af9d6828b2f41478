import { createAccount, startTestApp, TestAccount, TestApp } from '../support/test-app';

describe('/v1/unsubscribes', () => {
  let t: TestApp;
  let acct: TestAccount;

  beforeAll(async () => {
    t = await startTestApp();
  });
  beforeEach(async () => {
    acct = await createAccount(t.app);
  });
  afterAll(() => t.close());

  it('adds a number once with source api; a second add is added false', async () => {
    const first = await t.api.post('/v1/unsubscribes', { auth: acct.auth, body: { number: '0412 300 001' } });
    expect(first.body).toEqual({ status: 'complete', number: '61412300001', added: true });
    const again = await t.api.post('/v1/unsubscribes', { auth: acct.auth, body: { number: '+61412300001' } });
    expect(again.body).toEqual({ status: 'complete', number: '61412300001', added: false });
    const list = await t.api.get('/v1/unsubscribes', { auth: acct.auth });
    expect(list.body).toEqual({
      status: 'complete',
      total: 1,
      limit: 100,
      offset: 0,
      results: [{ number: '61412300001', source: 'api', unsubscribed_at: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/) }],
    });
  });

  it('removes the number from every list of the account but keeps the contact', async () => {
    const contact = (await t.api.post('/v1/contacts', { auth: acct.auth, body: { number: '0412300002' } })).body.contact_id;
    const keep = (await t.api.post('/v1/contacts', { auth: acct.auth, body: { number: '0412300003' } })).body.contact_id;
    for (const name of ['L1', 'L2']) {
      const list_id = (await t.api.post('/v1/lists', { auth: acct.auth, body: { name } })).body.list_id;
      await t.api.post('/v1/list-contacts', { auth: acct.auth, body: { list_id, contact_id: contact } });
      await t.api.post('/v1/list-contacts', { auth: acct.auth, body: { list_id, contact_id: keep } });
    }
    await t.api.post('/v1/unsubscribes', { auth: acct.auth, body: { number: '0412300002' } });
    const lists = (await t.api.get('/v1/lists', { auth: acct.auth })).body.results;
    expect(lists.map((l: { contact_count: number }) => l.contact_count)).toEqual([1, 1]);
    expect((await t.api.get('/v1/contacts', { auth: acct.auth, query: { number: '0412300002' } })).body.total).toBe(1);
  });

  it('still allows adding an unsubscribed number to a list', async () => {
    await t.api.post('/v1/unsubscribes', { auth: acct.auth, body: { number: '0412300004' } });
    const list_id = (await t.api.post('/v1/lists', { auth: acct.auth, body: { name: 'Later' } })).body.list_id;
    const res = await t.api.post('/v1/list-contacts', { auth: acct.auth, body: { list_id, number: '0412300004' } });
    expect(res.body.added).toBe(true);
  });

  it('filters by number and pages', async () => {
    for (const n of ['0412300011', '0412300012', '0412300013']) await t.api.post('/v1/unsubscribes', { auth: acct.auth, body: { number: n } });
    const one = await t.api.get('/v1/unsubscribes', { auth: acct.auth, query: { number: '0412 300 012' } });
    expect(one.body.results.map((r: { number: string }) => r.number)).toEqual(['61412300012']);
    const page = await t.api.get('/v1/unsubscribes', { auth: acct.auth, query: { limit: 2, offset: 2 } });
    expect(page.body).toMatchObject({ total: 3, limit: 2, offset: 2 });
    expect(page.body.results).toHaveLength(1);
    expect((await t.api.get('/v1/unsubscribes', { auth: acct.auth, query: { limit: 201 } })).body).toEqual({ error: 'limit must be between 1 and 200' });
  });

  it('deletes a number; deleting again is removed false', async () => {
    await t.api.post('/v1/unsubscribes', { auth: acct.auth, body: { number: '0412300021' } });
    expect((await t.api.delete('/v1/unsubscribes', { auth: acct.auth, body: { number: '0412300021' } })).body).toEqual({
      status: 'complete',
      number: '61412300021',
      removed: true,
    });
    expect((await t.api.delete('/v1/unsubscribes', { auth: acct.auth, body: { number: '0412300021' } })).body).toEqual({
      status: 'complete',
      number: '61412300021',
      removed: false,
    });
  });

  it.each([
    ['POST', { body: {} }, 'number is required'],
    ['POST', { body: { number: '0298765432' } }, 'Invalid phone number format'],
    ['DELETE', { body: {} }, 'number is required'],
    ['DELETE', { body: { number: 'abc' } }, 'Invalid phone number format'],
    ['GET', { query: { number: '123' } }, 'Invalid phone number format'],
  ])('answers %s %j with 400', async (method, options, error) => {
    const res = await t.api.request(method, '/v1/unsubscribes', { auth: acct.auth, ...(options as object) });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error });
  });
});
