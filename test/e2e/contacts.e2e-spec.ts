import { DataSource } from 'typeorm';
import { failInsertsFor } from '../support/fail-inserts';
import { createAccount, startTestApp, TestAccount, TestApp } from '../support/test-app';

describe('/v1/contacts', () => {
  let t: TestApp;
  let acct: TestAccount;

  beforeAll(async () => {
    t = await startTestApp({ inflightLimit: 50 });
  });
  beforeEach(async () => {
    acct = await createAccount(t.app);
  });
  afterAll(() => t.close());

  const post = (body: unknown, a = acct) => t.api.post('/v1/contacts', { auth: a.auth, body });

  describe('POST', () => {
    it.each([['0412345678'], ['412345678'], ['61412345678'], ['+61412345678'], ['610412345678'], ['0412 345 678'], ['(04) 1234-5678'], ['0412.345.678'], ['+61 (0) 412-345-678']])(
      'accepts %s and stores it normalised as 61412345678',
      async (number) => {
        const res = await post({ number });
        expect(res.status).toBe(200);
        expect(res.body).toEqual({ status: 'complete', contact_id: expect.any(Number), number: '61412345678' });
      },
    );

    it.each([
      ['a landline', '0298765432'],
      ['an international landline', '+61298765432'],
      ['too short', '041234567'],
      ['too long', '04123456789'],
      ['a New Zealand mobile', '+64211234567'],
      ['a UK mobile', '+447911123456'],
      ['letters', '04ABCDEFGH'],
      ['a 1300 number', '1300123456'],
    ])('rejects %s with 400 Invalid phone number format', async (_case, number) => {
      const res = await post({ number });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'Invalid phone number format' });
    });

    it.each([[{}], [{ number: '' }], [{ number: null }], [{ first_name: 'No number' }]])('answers 400 number is required for %j', async (body) => {
      const res = await post(body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'number is required' });
    });

    it('answers 400 when a field is not a string', async () => {
      expect((await post({ number: 412345678 })).body).toEqual({ error: 'number must be a string' });
      expect((await post({ number: '0412345678', first_name: 7 })).body).toEqual({ error: 'first_name must be a string' });
    });

    it('returns unset text fields as empty strings', async () => {
      const created = await post({ number: '0412000001', first_name: 'Ann', field_3: 'vip' });
      const list = await t.api.get('/v1/contacts', { auth: acct.auth });
      expect(list.body.results).toEqual([
        {
          contact_id: created.body.contact_id,
          number: '61412000001',
          first_name: 'Ann',
          last_name: '',
          company: '',
          other: '',
          field_1: '',
          field_2: '',
          field_3: 'vip',
          field_4: '',
          field_5: '',
        },
      ]);
    });

    it('answers 409 for a number already in the contacts, in any form', async () => {
      await post({ number: '0412000002' });
      const res = await post({ number: '+61 412 000 002' });
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ error: 'This phone number already exists in your contacts' });
    });

    it('answers 500 Failed to add contact when the contact cannot be stored', async () => {
      const restore = await failInsertsFor(t.app.get(DataSource), 'contacts', acct.accountId);
      try {
        const res = await post({ number: '0412000008' });
        expect(res.status).toBe(500);
        expect(res.body).toEqual({ error: 'Failed to add contact' });
      } finally {
        await restore();
      }
    });

    it('creates exactly one contact when the same number is posted concurrently', async () => {
      const results = await Promise.all(Array.from({ length: 10 }, () => post({ number: '0412000003' })));
      expect(results.filter((r) => r.status === 200)).toHaveLength(1);
      expect(results.filter((r) => r.status === 409)).toHaveLength(9);
    });

    it('allows duplicate numbers when the account allows duplicate contacts', async () => {
      const dup = await createAccount(t.app, { allowDuplicateContacts: true });
      const first = await post({ number: '0412000004' }, dup);
      const second = await post({ number: '0412000004' }, dup);
      expect([first.status, second.status]).toEqual([200, 200]);
      expect(second.body.contact_id).not.toBe(first.body.contact_id);
      expect((await t.api.get('/v1/contacts', { auth: dup.auth, query: { number: '0412000004' } })).body.total).toBe(2);
    });
  });

  describe('GET', () => {
    beforeEach(async () => {
      await post({ number: '0412000011', first_name: 'Alice', last_name: 'Smith', company: 'Acme Pty' });
      await post({ number: '0412000012', first_name: 'Bob', last_name: 'Smithers', company: 'Acme Pty' });
      await post({ number: '0412000013', first_name: 'Carol', last_name: 'Jones', company: 'Other Co', field_2: '50%_off' });
    });

    it('lists newest first with total, limit and offset', async () => {
      const res = await t.api.get('/v1/contacts', { auth: acct.auth });
      expect(res.body).toMatchObject({ status: 'complete', total: 3, limit: 100, offset: 0 });
      expect(res.body.results.map((c: { first_name: string }) => c.first_name)).toEqual(['Carol', 'Bob', 'Alice']);
    });

    it('filters by exact number after normalisation', async () => {
      const res = await t.api.get('/v1/contacts', { auth: acct.auth, query: { number: '+61 412 000 012' } });
      expect(res.body.total).toBe(1);
      expect(res.body.results[0].first_name).toBe('Bob');
    });

    it('matches text fields as case-insensitive substrings combined with AND', async () => {
      const smith = await t.api.get('/v1/contacts', { auth: acct.auth, query: { last_name: 'SMITH' } });
      expect(smith.body.results.map((c: { first_name: string }) => c.first_name)).toEqual(['Bob', 'Alice']);
      const both = await t.api.get('/v1/contacts', { auth: acct.auth, query: { last_name: 'smith', first_name: 'ali' } });
      expect(both.body.results.map((c: { first_name: string }) => c.first_name)).toEqual(['Alice']);
      const none = await t.api.get('/v1/contacts', { auth: acct.auth, query: { company: 'acme', first_name: 'carol' } });
      expect(none.body).toMatchObject({ total: 0, results: [] });
    });

    it('treats % and _ in a filter literally', async () => {
      expect((await t.api.get('/v1/contacts', { auth: acct.auth, query: { field_2: '%_' } })).body.total).toBe(1);
      expect((await t.api.get('/v1/contacts', { auth: acct.auth, query: { first_name: '%' } })).body.total).toBe(0);
    });

    it('answers 400 Invalid phone number format for an unparsable number filter', async () => {
      const res = await t.api.get('/v1/contacts', { auth: acct.auth, query: { number: '12345' } });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'Invalid phone number format' });
    });

    it.each<[{ limit?: number; offset?: number }, number, number]>([
      [{ limit: 1 }, 200, 1],
      [{ limit: 200 }, 200, 3],
      [{ limit: 3, offset: 3 }, 200, 0],
      [{ offset: 1000 }, 200, 0],
    ])('pages with %j', async (query, status, count) => {
      const res = await t.api.get('/v1/contacts', { auth: acct.auth, query });
      expect(res.status).toBe(status);
      expect(res.body.results).toHaveLength(count);
      expect(res.body.total).toBe(3);
      expect(res.body.limit).toBe(query.limit ?? 100);
      expect(res.body.offset).toBe(query.offset ?? 0);
    });

    it('walks every contact exactly once page by page', async () => {
      const seen: number[] = [];
      for (let offset = 0; offset < 3; offset++) {
        seen.push(...(await t.api.get('/v1/contacts', { auth: acct.auth, query: { limit: 1, offset } })).body.results.map((c: { contact_id: number }) => c.contact_id));
      }
      expect(new Set(seen).size).toBe(3);
    });

    it.each([
      [{ limit: 0 }, 'limit must be between 1 and 200'],
      [{ limit: 201 }, 'limit must be between 1 and 200'],
      [{ limit: 'ten' }, 'limit must be between 1 and 200'],
      [{ limit: '1.5' }, 'limit must be between 1 and 200'],
      [{ offset: -1 }, 'offset must be a non-negative integer'],
      [{ offset: 'x' }, 'offset must be a non-negative integer'],
    ])('answers 400 for %j', async (query, error) => {
      const res = await t.api.get('/v1/contacts', { auth: acct.auth, query: query as Record<string, string> });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error });
    });
  });

  describe('PATCH', () => {
    it('changes only the supplied fields', async () => {
      const { body } = await post({ number: '0412000021', first_name: 'Ann', company: 'Acme' });
      const res = await t.api.patch('/v1/contacts', { auth: acct.auth, body: { contact_id: body.contact_id, company: 'NewCo', field_5: 'x' } });
      expect(res.body).toEqual({ status: 'complete', contact_id: body.contact_id });
      const after = (await t.api.get('/v1/contacts', { auth: acct.auth })).body.results[0];
      expect(after).toMatchObject({ first_name: 'Ann', company: 'NewCo', field_5: 'x', number: '61412000021' });
    });

    it('changes the number, re-normalised', async () => {
      const { body } = await post({ number: '0412000022' });
      await t.api.patch('/v1/contacts', { auth: acct.auth, body: { contact_id: body.contact_id, number: '+61 412 000 023' } });
      expect((await t.api.get('/v1/contacts', { auth: acct.auth })).body.results[0].number).toBe('61412000023');
    });

    it('answers 409 when the new number belongs to another contact', async () => {
      await post({ number: '0412000024' });
      const { body } = await post({ number: '0412000025' });
      const res = await t.api.patch('/v1/contacts', { auth: acct.auth, body: { contact_id: body.contact_id, number: '0412000024' } });
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ error: 'This phone number already exists in your contacts' });
    });

    it('accepts the contact’s own number again', async () => {
      const { body } = await post({ number: '0412000026' });
      expect((await t.api.patch('/v1/contacts', { auth: acct.auth, body: { contact_id: body.contact_id, number: '0412000026' } })).status).toBe(200);
    });

    it.each([
      [{}, 400, 'contact_id is required'],
      [{ number: '0412000027' }, 400, 'contact_id is required'],
      [{ contact_id: 'abc' }, 400, 'contact_id must be a positive integer'],
      [{ contact_id: 1 }, 400, 'No fields provided to update'],
      [{ contact_id: 1, number: 'nope' }, 400, 'Invalid phone number format'],
      [{ contact_id: 999999999, first_name: 'X' }, 404, 'Contact not found'],
    ])('answers %j with %i', async (body, status, error) => {
      const res = await t.api.patch('/v1/contacts', { auth: acct.auth, body });
      expect(res.status).toBe(status);
      expect(res.body).toEqual({ error });
    });
  });

  describe('DELETE', () => {
    it('deletes the contact and removes it from every list', async () => {
      const { body } = await post({ number: '0412000031' });
      const l1 = (await t.api.post('/v1/lists', { auth: acct.auth, body: { name: 'one' } })).body.list_id;
      const l2 = (await t.api.post('/v1/lists', { auth: acct.auth, body: { name: 'two' } })).body.list_id;
      for (const list_id of [l1, l2]) await t.api.post('/v1/list-contacts', { auth: acct.auth, body: { list_id, contact_id: body.contact_id } });
      const res = await t.api.delete('/v1/contacts', { auth: acct.auth, body: { contact_id: body.contact_id } });
      expect(res.body).toEqual({ status: 'complete', contact_id: body.contact_id, removed: true });
      const lists = (await t.api.get('/v1/lists', { auth: acct.auth })).body.results;
      expect(lists.map((l: { contact_count: number }) => l.contact_count)).toEqual([0, 0]);
      expect((await t.api.get('/v1/contacts', { auth: acct.auth })).body.total).toBe(0);
    });

    it('answers removed false for an unknown id', async () => {
      const res = await t.api.delete('/v1/contacts', { auth: acct.auth, body: { contact_id: 987654321 } });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ status: 'complete', contact_id: 987654321, removed: false });
    });

    it('answers 400 contact_id is required without one', async () => {
      const res = await t.api.delete('/v1/contacts', { auth: acct.auth });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'contact_id is required' });
    });
  });
});
