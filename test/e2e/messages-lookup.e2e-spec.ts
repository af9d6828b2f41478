import { DataSource } from 'typeorm';
import { createAccount, startTestApp, TestAccount, TestApp } from '../support/test-app';

describe('GET /v1/messages', () => {
  let t: TestApp;
  let acct: TestAccount;
  let ids: string[];

  beforeAll(async () => {
    // Acceptance only: no delivery workers in this process, so statuses stay as the send left them.
    t = await startTestApp({ appRole: 'api' });
  });
  // Each test gets its own account and messages: one test rewrites their created_at.
  beforeEach(async () => {
    acct = await createAccount(t.app, { credits: 100, senders: ['Brand'] });
    const res = await t.api.post('/v1/messages', {
      auth: acct.auth,
      body: {
        messages: [
          { to: '0412000001', message: 'one', sender: 'Brand', custom_ref: 'campaign-a' },
          { to: '0412000002', message: 'two', sender: 'Brand', custom_ref: 'campaign-a' },
          { to: '0412000003', message: 'three', sender: 'Brand', custom_ref: 'other', scheduled_for: '2099-01-01T00:00:00' },
          { to: '0412000004', message: 'four', sender: 'Brand' },
        ],
      },
    });
    // 2099 is more than 365 days ahead: that entry is an error, so three messages exist.
    ids = res.body.results.filter((r: { status: string }) => r.status === 'success').map((r: { message_id: string }) => r.message_id);
    const later = new Date(Date.now() + 86_400_000).toISOString().slice(0, 19);
    const scheduled = await t.api.post('/v1/messages', {
      auth: acct.auth,
      body: { messages: [{ to: '0412000005', message: 'five', sender: 'Brand', custom_ref: 'other', scheduled_for: later }] },
    });
    ids.push(scheduled.body.results[0].message_id);
  });
  afterAll(() => t.close());

  it('looks a message up by message_id in the lookup shape', async () => {
    const res = await t.api.get('/v1/messages', { auth: acct.auth, query: { message_id: ids[0] } });
    expect(res.body).toEqual({
      status: 'complete',
      results: [
        {
          to: '61412000001',
          message: 'one',
          sender: 'Brand',
          custom_ref: 'campaign-a',
          status: 'pending',
          cost: '1.00',
          message_id: ids[0],
          requested_at: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
          scheduled_for: null,
          send_id: expect.any(Number),
        },
      ],
    });
  });

  it('prefers message_id over custom_ref and never falls through', async () => {
    const res = await t.api.get('/v1/messages', { auth: acct.auth, query: { message_id: ids[2], custom_ref: 'campaign-a' } });
    expect(res.body.results.map((r: { message_id: string }) => r.message_id)).toEqual([ids[2]]);
    const miss = await t.api.get('/v1/messages', { auth: acct.auth, query: { message_id: '00000000-0000-4000-8000-000000000000', custom_ref: 'campaign-a' } });
    expect(miss.status).toBe(404);
  });

  it('finds every message with a custom_ref, newest first, ignoring limit and offset', async () => {
    const res = await t.api.get('/v1/messages', { auth: acct.auth, query: { custom_ref: 'campaign-a', limit: 1, offset: 5 } });
    expect(res.body.status).toBe('complete');
    expect(res.body.results.map((r: { message: string }) => r.message)).toEqual(['two', 'one']);
    expect(Object.keys(res.body)).toEqual(['status', 'results']);
  });

  it('ignores even out-of-range limit and offset on lookups, and checks them on the history', async () => {
    expect((await t.api.get('/v1/messages', { auth: acct.auth, query: { custom_ref: 'campaign-a', limit: 500, offset: -1 } })).status).toBe(200);
    expect((await t.api.get('/v1/messages', { auth: acct.auth, query: { message_id: ids[0], limit: 'x' } })).status).toBe(200);
    expect((await t.api.get('/v1/messages', { auth: acct.auth, query: { limit: 500 } })).body).toEqual({ error: 'limit must be between 1 and 200' });
  });

  it('returns at most the 100 most recent matches of a custom_ref', async () => {
    const bulk = await createAccount(t.app, { test: true, senders: ['Brand'] });
    const messages = Array.from({ length: 105 }, (_, i) => ({ to: `04120${String(i).padStart(5, '0')}`, message: `m${i}`, sender: 'Brand', custom_ref: 'bulk' }));
    await t.api.post('/v1/messages', { auth: bulk.auth, body: { messages } });
    const res = await t.api.get('/v1/messages', { auth: bulk.auth, query: { custom_ref: 'bulk' } });
    expect(res.body.results).toHaveLength(100);
    expect(res.body.results[0].message).toBe('m104');
    expect(res.body.results[99].message).toBe('m5');
  });

  it.each([[{ message_id: 'not-a-uuid' }], [{ message_id: '00000000-0000-4000-8000-000000000000' }], [{ custom_ref: 'nothing-here' }]])(
    'answers 404 No message(s) found with the given ID or reference for %j',
    async (query) => {
      const res = await t.api.get('/v1/messages', { auth: acct.auth, query });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: 'No message(s) found with the given ID or reference' });
    },
  );

  it('browses the history newest first in the history shape with pagination', async () => {
    const res = await t.api.get('/v1/messages', { auth: acct.auth, query: { limit: 2 } });
    expect(res.body).toMatchObject({ status: 'complete', total: 4, limit: 2, offset: 0 });
    expect(res.body.results[0]).toEqual({
      message_id: ids[3],
      recipient_number: '61412000005',
      sender_id: 'Brand',
      message_content: 'five',
      status: 'scheduled',
      cost: '1.00',
      custom_ref: 'other',
      requested_at: expect.any(String),
      scheduled_for: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
      send_id: expect.any(Number),
    });
    const rest = await t.api.get('/v1/messages', { auth: acct.auth, query: { limit: 2, offset: 2 } });
    expect(rest.body.results.map((r: { message_content: string }) => r.message_content)).toEqual(['two', 'one']);
  });

  it('continues the history after next_cursor, through messages of one send (one creation time), to null at its end', async () => {
    const contents = (res: { body: { results: Array<{ message_content: string }> } }) => res.body.results.map((r) => r.message_content);
    const first = await t.api.get('/v1/messages', { auth: acct.auth, query: { limit: 2 } });
    expect(contents(first)).toEqual(['five', 'four']);
    expect(first.body.next_cursor).toEqual(expect.stringMatching(/^[A-Za-z0-9_-]+$/));
    const second = await t.api.get('/v1/messages', { auth: acct.auth, query: { limit: 2, cursor: first.body.next_cursor } });
    expect(second.body).toMatchObject({ status: 'complete', total: 4, limit: 2, offset: 0 });
    expect(contents(second)).toEqual(['two', 'one']);
    // A full page may be the last: the page after it is empty, and says so.
    const third = await t.api.get('/v1/messages', { auth: acct.auth, query: { limit: 2, cursor: second.body.next_cursor } });
    expect(third.body).toMatchObject({ total: 4, results: [], next_cursor: null });
    const short = await t.api.get('/v1/messages', { auth: acct.auth, query: { limit: 3, cursor: first.body.next_cursor } });
    expect(contents(short)).toEqual(['two', 'one']);
    expect(short.body.next_cursor).toBeNull();
  });

  it('continues a filtered history with the same filters, and offset counts from the cursor', async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const res = await t.api.get('/v1/messages', { auth: acct.auth, query: { status: 'pending', limit: 1, ...(cursor ? { cursor } : {}) } });
      expect(res.body.total).toBe(3);
      seen.push(...res.body.results.map((r: { message_content: string }) => r.message_content));
      cursor = res.body.next_cursor ?? undefined;
    } while (cursor);
    expect(seen).toEqual(['four', 'two', 'one']);
    const first = await t.api.get('/v1/messages', { auth: acct.auth, query: { limit: 1 } });
    const skipped = await t.api.get('/v1/messages', { auth: acct.auth, query: { limit: 1, offset: 1, cursor: first.body.next_cursor } });
    expect(skipped.body.results.map((r: { message_content: string }) => r.message_content)).toEqual(['two']);
  });

  it('filters the history by status', async () => {
    const res = await t.api.get('/v1/messages', { auth: acct.auth, query: { status: 'scheduled' } });
    expect(res.body.results.map((r: { message_id: string }) => r.message_id)).toEqual([ids[3]]);
  });

  it('filters the history by from and to dates, inclusive, in UTC', async () => {
    const ds = t.app.get(DataSource);
    await ds.query(`UPDATE messages SET created_at = '2026-03-01T23:59:59Z' WHERE id = $1`, [ids[0]]);
    await ds.query(`UPDATE messages SET created_at = '2026-03-02T00:00:00Z' WHERE id = $1`, [ids[1]]);
    const day1 = await t.api.get('/v1/messages', { auth: acct.auth, query: { from: '2026-03-01', to: '2026-03-01' } });
    expect(day1.body.results.map((r: { message_id: string }) => r.message_id)).toEqual([ids[0]]);
    const both = await t.api.get('/v1/messages', { auth: acct.auth, query: { from: '2026-02-28', to: '2026-03-02' } });
    expect(both.body.total).toBe(2);
    const from = await t.api.get('/v1/messages', { auth: acct.auth, query: { from: '2026-03-02' } });
    expect(from.body.total).toBe(3);
  });

  it.each([
    [{ status: 'sending' }, 'Invalid status filter. Valid values: pending, scheduled, sent, delivered, failed, cancelled'],
    [{ from: '2026/03/01' }, 'Invalid from date; expected format YYYY-MM-DD'],
    [{ from: '2026-02-30' }, 'Invalid from date; expected format YYYY-MM-DD'],
    [{ to: 'yesterday' }, 'Invalid to date; expected format YYYY-MM-DD'],
    [{ limit: 500 }, 'limit must be between 1 and 200'],
    [{ offset: -3 }, 'offset must be a non-negative integer'],
    [{ cursor: 'not a cursor' }, 'Invalid cursor; use the next_cursor of a previous page'],
    [{ cursor: Buffer.from('12.x').toString('base64url') }, 'Invalid cursor; use the next_cursor of a previous page'],
  ])('answers 400 for %j', async (query, error) => {
    const res = await t.api.get('/v1/messages', { auth: acct.auth, query: query as Record<string, string> });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error });
  });

  it('shows another account nothing', async () => {
    const other = await createAccount(t.app);
    expect((await t.api.get('/v1/messages', { auth: other.auth })).body.total).toBe(0);
    expect((await t.api.get('/v1/messages', { auth: other.auth, query: { message_id: ids[0] } })).status).toBe(404);
    expect((await t.api.get('/v1/messages', { auth: other.auth, query: { custom_ref: 'campaign-a' } })).status).toBe(404);
  });
});
