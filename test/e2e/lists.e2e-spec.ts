import { createAccount, startTestApp, TestAccount, TestApp } from '../support/test-app';

describe('/v1/lists and /v1/list-contacts', () => {
  let t: TestApp;
  let acct: TestAccount;

  beforeAll(async () => {
    t = await startTestApp({ inflightLimit: 50 });
  });
  beforeEach(async () => {
    acct = await createAccount(t.app);
  });
  afterAll(() => t.close());

  const createList = async (name: string) => (await t.api.post('/v1/lists', { auth: acct.auth, body: { name } })).body.list_id as number;
  const addContact = async (number: string, extra: Record<string, string> = {}) =>
    (await t.api.post('/v1/contacts', { auth: acct.auth, body: { number, ...extra } })).body.contact_id as number;

  describe('lists', () => {
    it('creates a list, then returns the same one for the same name with existing true', async () => {
      const first = await t.api.post('/v1/lists', { auth: acct.auth, body: { name: 'Customers' } });
      expect(first.body).toEqual({ status: 'complete', list_id: expect.any(Number), name: 'Customers', existing: false });
      const second = await t.api.post('/v1/lists', { auth: acct.auth, body: { name: 'Customers' } });
      expect(second.body).toEqual({ status: 'complete', list_id: first.body.list_id, name: 'Customers', existing: true });
    });

    it('yields one list when one name is created concurrently', async () => {
      const results = await Promise.all(Array.from({ length: 12 }, () => t.api.post('/v1/lists', { auth: acct.auth, body: { name: 'Race' } })));
      expect(new Set(results.map((r) => r.body.list_id)).size).toBe(1);
      expect(results.filter((r) => r.body.existing === false)).toHaveLength(1);
      expect((await t.api.get('/v1/lists', { auth: acct.auth })).body.results).toHaveLength(1);
    });

    it('lists newest first with created_at and contact_count, not paginated', async () => {
      const a = await createList('A');
      const b = await createList('B');
      const c1 = await addContact('0412100001');
      await t.api.post('/v1/list-contacts', { auth: acct.auth, body: { list_id: b, contact_id: c1 } });
      const res = await t.api.get('/v1/lists', { auth: acct.auth });
      expect(res.body).toEqual({
        status: 'complete',
        results: [
          { list_id: b, name: 'B', created_at: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/), contact_count: 1 },
          { list_id: a, name: 'A', created_at: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/), contact_count: 0 },
        ],
      });
      expect(Object.keys(res.body)).toEqual(['status', 'results']);
    });

    it.each([[{}], [{ name: '' }], [{ name: '   ' }]])('answers 400 name is required for %j', async (body) => {
      const res = await t.api.post('/v1/lists', { auth: acct.auth, body });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'name is required' });
    });

    it('renames a list', async () => {
      const id = await createList('Old');
      const res = await t.api.patch('/v1/lists', { auth: acct.auth, body: { list_id: id, name: 'New' } });
      expect(res.body).toEqual({ status: 'complete', list_id: id, name: 'New' });
      expect((await t.api.get('/v1/lists', { auth: acct.auth })).body.results[0].name).toBe('New');
    });

    it.each([
      [{ name: 'x' }, 400, 'list_id is required'],
      [{ list_id: 1 }, 400, 'name is required'],
      [{ list_id: 987654321, name: 'x' }, 404, 'List not found'],
    ])('answers PATCH %j with %i', async (body, status, error) => {
      const res = await t.api.patch('/v1/lists', { auth: acct.auth, body });
      expect(res.status).toBe(status);
      expect(res.body).toEqual({ error });
    });

    it('answers 404 List not found for an unchanged name', async () => {
      const id = await createList('Same');
      const res = await t.api.patch('/v1/lists', { auth: acct.auth, body: { list_id: id, name: 'Same' } });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: 'List not found' });
    });

    it('answers 409 when another list holds the name', async () => {
      await createList('Taken');
      const id = await createList('Mine');
      const res = await t.api.patch('/v1/lists', { auth: acct.auth, body: { list_id: id, name: 'Taken' } });
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ error: 'A list with this name already exists' });
    });

    it('deletes a list and its memberships but keeps the contacts by default', async () => {
      const id = await createList('Temp');
      const c = await addContact('0412100002');
      await t.api.post('/v1/list-contacts', { auth: acct.auth, body: { list_id: id, contact_id: c } });
      const res = await t.api.delete('/v1/lists', { auth: acct.auth, body: { list_id: id } });
      expect(res.body).toEqual({ status: 'complete', list_id: id, contacts_deleted: 0 });
      expect((await t.api.get('/v1/lists', { auth: acct.auth })).body.results).toEqual([]);
      expect((await t.api.get('/v1/contacts', { auth: acct.auth })).body.total).toBe(1);
    });

    it('deletes the member contacts too with delete_contacts, leaving non-members and other lists intact', async () => {
      const doomed = await createList('Doomed');
      const other = await createList('Other');
      const m1 = await addContact('0412100003');
      const m2 = await addContact('0412100004');
      const outsider = await addContact('0412100005');
      for (const c of [m1, m2]) await t.api.post('/v1/list-contacts', { auth: acct.auth, body: { list_id: doomed, contact_id: c } });
      await t.api.post('/v1/list-contacts', { auth: acct.auth, body: { list_id: other, contact_id: m1 } });
      await t.api.post('/v1/list-contacts', { auth: acct.auth, body: { list_id: other, contact_id: outsider } });
      const res = await t.api.delete('/v1/lists', { auth: acct.auth, body: { list_id: doomed, delete_contacts: true } });
      expect(res.body).toEqual({ status: 'complete', list_id: doomed, contacts_deleted: 2 });
      const contacts = (await t.api.get('/v1/contacts', { auth: acct.auth })).body.results.map((c: { contact_id: number }) => c.contact_id);
      expect(contacts).toEqual([outsider]);
      expect((await t.api.get('/v1/lists', { auth: acct.auth })).body.results).toEqual([expect.objectContaining({ list_id: other, contact_count: 1 })]);
    });

    it.each([
      [{}, 400, 'list_id is required'],
      [{ list_id: 987654321 }, 404, 'List not found'],
      [{ list_id: 1, delete_contacts: 'yes' }, 400, 'delete_contacts must be a boolean'],
    ])('answers DELETE %j with %i', async (body, status, error) => {
      const res = await t.api.delete('/v1/lists', { auth: acct.auth, body });
      expect(res.status).toBe(status);
      expect(res.body).toEqual({ error });
    });
  });

  describe('membership', () => {
    it('adds by contact_id once; the second add is added false', async () => {
      const list = await createList('M');
      const c = await addContact('0412200001');
      const first = await t.api.post('/v1/list-contacts', { auth: acct.auth, body: { list_id: list, contact_id: c } });
      expect(first.body).toEqual({ status: 'complete', list_id: list, contact_id: c, added: true });
      const again = await t.api.post('/v1/list-contacts', { auth: acct.auth, body: { list_id: list, contact_id: c } });
      expect(again.body).toEqual({ status: 'complete', list_id: list, contact_id: c, added: false });
    });

    it('adds by number, creating the contact with its fields when new and reusing it otherwise', async () => {
      const list = await createList('ByNumber');
      const created = await t.api.post('/v1/list-contacts', { auth: acct.auth, body: { list_id: list, number: '0412 200 002', first_name: 'Nia' } });
      expect(created.body).toMatchObject({ list_id: list, added: true });
      const contacts = await t.api.get('/v1/contacts', { auth: acct.auth, query: { number: '0412200002' } });
      expect(contacts.body.results).toEqual([expect.objectContaining({ contact_id: created.body.contact_id, first_name: 'Nia' })]);
      const again = await t.api.post('/v1/list-contacts', { auth: acct.auth, body: { list_id: list, number: '+61412200002' } });
      expect(again.body).toEqual({ status: 'complete', list_id: list, contact_id: created.body.contact_id, added: false });
    });

    it('pages the members newest first', async () => {
      const list = await createList('Paged');
      const ids: number[] = [];
      for (let i = 0; i < 3; i++) ids.push((await t.api.post('/v1/list-contacts', { auth: acct.auth, body: { list_id: list, number: `041220010${i}` } })).body.contact_id);
      const page = await t.api.get('/v1/list-contacts', { auth: acct.auth, query: { list_id: list, limit: 2 } });
      expect(page.body).toMatchObject({ status: 'complete', list_id: list, total: 3, limit: 2, offset: 0 });
      expect(page.body.results.map((c: { contact_id: number }) => c.contact_id)).toEqual([ids[2], ids[1]]);
      const last = await t.api.get('/v1/list-contacts', { auth: acct.auth, query: { list_id: list, limit: 2, offset: 2 } });
      expect(last.body.results.map((c: { contact_id: number }) => c.contact_id)).toEqual([ids[0]]);
      const past = await t.api.get('/v1/list-contacts', { auth: acct.auth, query: { list_id: list, offset: 50 } });
      expect(past.body).toMatchObject({ total: 3, results: [] });
    });

    it('removes by contact_id and by number; removing twice is removed false', async () => {
      const list = await createList('Remove');
      const a = (await t.api.post('/v1/list-contacts', { auth: acct.auth, body: { list_id: list, number: '0412200201' } })).body.contact_id;
      const b = (await t.api.post('/v1/list-contacts', { auth: acct.auth, body: { list_id: list, number: '0412200202' } })).body.contact_id;
      expect((await t.api.delete('/v1/list-contacts', { auth: acct.auth, body: { list_id: list, contact_id: a } })).body).toEqual({
        status: 'complete',
        list_id: list,
        contact_id: a,
        removed: true,
      });
      expect((await t.api.delete('/v1/list-contacts', { auth: acct.auth, body: { list_id: list, number: '0412 200 202' } })).body).toEqual({
        status: 'complete',
        list_id: list,
        contact_id: b,
        removed: true,
      });
      expect((await t.api.delete('/v1/list-contacts', { auth: acct.auth, body: { list_id: list, contact_id: a } })).body).toEqual({
        status: 'complete',
        list_id: list,
        contact_id: a,
        removed: false,
      });
      expect((await t.api.delete('/v1/list-contacts', { auth: acct.auth, body: { list_id: list, number: '0412200299' } })).body).toEqual({
        status: 'complete',
        list_id: list,
        contact_id: null,
        removed: false,
      });
      expect((await t.api.get('/v1/contacts', { auth: acct.auth })).body.total).toBe(2);
    });

    it.each([
      ['GET', { query: {} }, 400, 'list_id is required'],
      ['GET', { query: { list_id: 987654321 } }, 404, 'List not found'],
      ['POST', { body: { contact_id: 1 } }, 400, 'list_id is required'],
      ['POST', { body: { list_id: 987654321, number: '0412000000' } }, 404, 'List not found'],
      ['POST', { body: { list_id: 1 } }, 400, 'contact_id or number is required'],
      ['POST', { body: { list_id: 1, number: 'bad' } }, 400, 'Invalid phone number format'],
      ['DELETE', { body: { contact_id: 1 } }, 400, 'list_id is required'],
      ['DELETE', { body: { list_id: 987654321, contact_id: 1 } }, 404, 'List not found'],
      ['DELETE', { body: { list_id: 1, number: '02 9876 5432' } }, 400, 'Invalid phone number format'],
    ])('answers %s %j with %i', async (method, options, status, error) => {
      const res = await t.api.request(method, '/v1/list-contacts', { auth: acct.auth, ...(options as object) });
      expect(res.status).toBe(status);
      expect(res.body).toEqual({ error });
    });

    it('answers 404 Contact not found for an unknown contact_id', async () => {
      const list = await createList('X');
      const res = await t.api.post('/v1/list-contacts', { auth: acct.auth, body: { list_id: list, contact_id: 987654321 } });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: 'Contact not found' });
    });
  });
});
