import { DataSource } from 'typeorm';
import { failInsertsFor } from '../support/fail-inserts';
import { createAccount, startTestApp, TestAccount, TestApp } from '../support/test-app';

describe('POST /v1/list-send', () => {
  let t: TestApp;
  let acct: TestAccount;

  beforeAll(async () => {
    // Acceptance only: no delivery workers in this process, so statuses stay as the send left them.
    t = await startTestApp({ appRole: 'api' });
  });
  beforeEach(async () => {
    acct = await createAccount(t.app, { credits: 100, senders: ['Brand', '61400000001'] });
  });
  afterAll(() => t.close());

  async function listWith(contacts: Array<Record<string, string>>, name = 'List') {
    const list_id = (await t.api.post('/v1/lists', { auth: acct.auth, body: { name } })).body.list_id as number;
    for (const c of contacts) await t.api.post('/v1/list-contacts', { auth: acct.auth, body: { list_id, ...c } });
    return list_id;
  }
  const listSend = (body: Record<string, unknown>, a = acct) => t.api.post('/v1/list-send', { auth: a.auth, body });
  const byCustomRef = async (ref: string) => (await t.api.get('/v1/messages', { auth: acct.auth, query: { custom_ref: ref } })).body.results as Array<Record<string, string>>;

  it('sends to every member with their own placeholders and {optout}, findable by custom_ref', async () => {
    const list_id = await listWith([
      { number: '0412000001', first_name: 'Ann' },
      { number: '0412000002', first_name: 'Bob', company: 'Acme' },
    ]);
    const res = await listSend({ list_id, sender: '61400000001', message: 'Hi {first_name} {company}!{optout}', custom_ref: 'spring' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      status: 'complete',
      send_id: expect.any(Number),
      list_id,
      total_recipients: 2,
      total_blocked_unsubscribed: 0,
      total_skipped_too_long: 0,
      total_cost: 2,
      scheduled_for: null,
      stagger_minutes: null,
      send_status: 'queued',
    });
    const sent = await byCustomRef('spring');
    expect(sent.map((m) => [m.to, m.message, m.status]).sort()).toEqual([
      ['61412000001', 'Hi Ann ! Opt out: Reply Stop', 'pending'],
      ['61412000002', 'Hi Bob Acme! Opt out: Reply Stop', 'pending'],
    ]);
    expect((await t.api.get('/v1/account', { auth: acct.auth })).body.credit_balance).toBe(98);
  });

  it('filters unsubscribed numbers, duplicate numbers and texts over the part cap, counting each', async () => {
    const dup = await createAccount(t.app, { credits: 100, senders: ['Brand'], allowDuplicateContacts: true });
    const list_id = (await t.api.post('/v1/lists', { auth: dup.auth, body: { name: 'Mixed' } })).body.list_id;
    const add = (body: Record<string, string>) =>
      t.api.post('/v1/contacts', { auth: dup.auth, body }).then((r) => t.api.post('/v1/list-contacts', { auth: dup.auth, body: { list_id, contact_id: r.body.contact_id } }));
    await add({ number: '0412000011', first_name: 'Ann' });
    await add({ number: '0412000012', first_name: 'x'.repeat(800) });
    await t.api.post('/v1/unsubscribes', { auth: dup.auth, body: { number: '0412000013' } });
    // Added to the list after unsubscribing (allowed); list-send filters it.
    await add({ number: '0412000013', first_name: 'Unsub' });
    await add({ number: '0412000014', first_name: 'Dee' });
    await add({ number: '0412000014', first_name: 'Dee again' });
    // The account allows duplicates, so both 0412000014 contacts get a message.
    const res = await listSend({ list_id, sender: 'Brand', message: 'Hi {first_name}' }, dup);
    expect(res.body).toMatchObject({ total_recipients: 3, total_blocked_unsubscribed: 1, total_skipped_too_long: 1, total_cost: 3 });

    // Without duplicates allowed, one message per number.
    await t.app.get(DataSource).query('UPDATE accounts SET allow_duplicate_contacts = false WHERE id = $1', [dup.accountId]);
    const deduped = await listSend({ list_id, sender: 'Brand', message: 'Hi {first_name}' }, dup);
    expect(deduped.body).toMatchObject({ total_recipients: 2, total_blocked_unsubscribed: 1, total_skipped_too_long: 1 });

    const ignoring = await listSend({ list_id, sender: 'Brand', message: 'Hi', ignore_unsubscribes: true }, dup);
    expect(ignoring.body).toMatchObject({ total_recipients: 4, total_blocked_unsubscribed: 0 });
  });

  it('uses UCS-2 for a contact whose rendered text needs it, and respects max_parts', async () => {
    const list_id = await listWith([
      { number: '0412000021', first_name: 'Zoë' },
      { number: '0412000022', first_name: 'Жанна' },
    ]);
    const res = await listSend({ list_id, sender: 'Brand', message: `${'a'.repeat(60)} {first_name}`, custom_ref: 'ucs' });
    expect(res.body).toMatchObject({ total_recipients: 2, total_cost: 2 });
    const tight = await listSend({ list_id, sender: 'Brand', message: `${'a'.repeat(66)} {first_name}`, max_parts: 1 });
    expect(tight.body).toMatchObject({ total_recipients: 1, total_skipped_too_long: 1 });
  });

  it('schedules the whole send with scheduled_for (send_status scheduled) so it can be cancelled by send_id', async () => {
    const list_id = await listWith([{ number: '0412000031' }, { number: '0412000032' }]);
    const when = new Date(Date.now() + 2 * 86_400_000);
    const res = await listSend({ list_id, sender: 'Brand', message: 'Later', scheduled_for: when.toISOString().slice(0, 19), custom_ref: 'later' });
    expect(res.body).toMatchObject({ send_status: 'scheduled', scheduled_for: when.toISOString().slice(0, 19).replace('T', ' ') });
    expect((await byCustomRef('later')).every((m) => m.status === 'scheduled')).toBe(true);
    const cancel = await t.api.delete('/v1/messages', { auth: acct.auth, body: { send_id: res.body.send_id } });
    expect(cancel.body).toMatchObject({ cancelled_count: 2, credits_refunded: 2 });
  });

  it('spreads a staggered send evenly: message i of n at start + i × minutes / n', async () => {
    const list_id = await listWith([0, 1, 2, 3].map((i) => ({ number: `041200004${i}` })));
    const start = new Date(Date.now() + 86_400_000);
    start.setUTCSeconds(0, 0);
    const res = await listSend({ list_id, sender: 'Brand', message: 'Wave', stagger_minutes: 60, scheduled_for: start.toISOString().slice(0, 19), custom_ref: 'wave' });
    expect(res.body).toMatchObject({ stagger_minutes: 60, send_status: 'scheduled', total_recipients: 4 });
    const planned = (await byCustomRef('wave')).map((m) => m.scheduled_for).sort();
    const expected = [0, 15, 30, 45].map((min) => new Date(start.getTime() + min * 60_000).toISOString().slice(0, 19).replace('T', ' '));
    expect(planned).toEqual(expected);
  });

  it('starts a staggered send now when it is not scheduled: the first message pending, the rest scheduled', async () => {
    const list_id = await listWith([0, 1, 2].map((i) => ({ number: `041200005${i}` })));
    const res = await listSend({ list_id, sender: 'Brand', message: 'Now-ish', stagger_minutes: 30, custom_ref: 'soon' });
    expect(res.body).toMatchObject({ send_status: 'queued', scheduled_for: null, stagger_minutes: 30 });
    const statuses = (await byCustomRef('soon')).map((m) => m.status).sort();
    expect(statuses).toEqual(['pending', 'scheduled', 'scheduled']);
  });

  it.each([
    [{ sender: 'Brand', message: 'x' }, 400, 'list_id is required'],
    [{ list_id: 1, message: 'x' }, 400, 'sender is required'],
    [{ list_id: 1, sender: { id: 'Brand' }, message: 'x' }, 400, 'The sender field must be a string, not an object or array'],
    [{ list_id: 1, sender: ['Brand'], message: 'x' }, 400, 'The sender field must be a string, not an object or array'],
    [{ list_id: 1, sender: 'Brand' }, 400, 'message is required'],
    [{ list_id: 1, sender: 'Brand', message: 'x', max_parts: 0 }, 400, 'max_parts must be between 1 and 99'],
    [{ list_id: 1, sender: 'Brand', message: 'x', stagger_minutes: 1441 }, 400, 'stagger_minutes must be between 1 and 1440'],
    [{ list_id: 1, sender: 'Brand', message: 'x', scheduled_for: 'next week' }, 400, 'scheduled_for is not a valid datetime'],
    [{ list_id: 1, sender: 'Brand', message: 'x', scheduled_for: 123 }, 400, 'scheduled_for is not a valid datetime'],
    [{ list_id: 1, sender: 'NotMine', message: 'x' }, 403, 'Invalid sender. You do not have permission to use this sender'],
    [{ list_id: 987654321, sender: 'Brand', message: 'x' }, 404, 'List not found'],
  ])('answers %j with %i', async (body, status, error) => {
    const res = await listSend(body);
    expect(res.status).toBe(status);
    expect(res.body).toEqual({ error });
  });

  it('accepts a numeric sender in any mobile form, sending from its normalised form; alphanumeric senders match exactly', async () => {
    const list_id = await listWith([{ number: '0412000071' }], 'Forms');
    expect((await listSend({ list_id, sender: '+61 400 000 001', message: 'Hi', custom_ref: 'forms' })).status).toBe(200);
    expect((await byCustomRef('forms')).map((m) => m.sender)).toEqual(['61400000001']);
    const refused = await listSend({ list_id, sender: 'brand', message: 'Hi' });
    expect([refused.status, refused.body]).toEqual([403, { error: 'Invalid sender. You do not have permission to use this sender' }]);
  });

  it('answers 400 for an empty list and for lists emptied by the filters', async () => {
    const empty = await listWith([], 'Empty');
    expect((await listSend({ list_id: empty, sender: 'Brand', message: 'x' })).body).toEqual({ error: 'The list has no contacts' });
    const unsub = await listWith([{ number: '0412000061' }], 'Unsubbed');
    await t.api.post('/v1/unsubscribes', { auth: acct.auth, body: { number: '0412000061' } });
    await t.api.post('/v1/list-contacts', { auth: acct.auth, body: { list_id: unsub, number: '0412000061' } });
    expect((await listSend({ list_id: unsub, sender: 'Brand', message: 'x' })).body).toEqual({ error: 'No recipients remain after filtering unsubscribes' });
    const long = await listWith([{ number: '0412000062' }], 'Long');
    expect((await listSend({ list_id: long, sender: 'Brand', message: 'a'.repeat(800) })).body).toEqual({ error: 'No recipients remain after filtering' });
  });

  it('answers 403 stating the credits needed and held, and stores nothing', async () => {
    const poor = await createAccount(t.app, { credits: 1.5, senders: ['Brand'] });
    const list_id = (await t.api.post('/v1/lists', { auth: poor.auth, body: { name: 'P' } })).body.list_id;
    for (const n of ['0412000071', '0412000072']) await t.api.post('/v1/list-contacts', { auth: poor.auth, body: { list_id, number: n } });
    const res = await listSend({ list_id, sender: 'Brand', message: 'a'.repeat(200) }, poor);
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: 'Insufficient credits: 4 needed, 1.5 available' });
    expect((await t.api.get('/v1/messages', { auth: poor.auth })).body.total).toBe(0);
  });

  it('answers 500 Failed to send to list when storing fails, with nothing stored or charged', async () => {
    const list_id = await listWith([{ number: '0412000091' }], 'Doomed');
    const restore = await failInsertsFor(t.app.get(DataSource), 'messages', acct.accountId);
    try {
      const res = await listSend({ list_id, sender: 'Brand', message: 'x' });
      expect(res.status).toBe(500);
      expect(res.body).toEqual({ error: 'Failed to send to list' });
    } finally {
      await restore();
    }
    expect((await t.api.get('/v1/account', { auth: acct.auth })).body.credit_balance).toBe(100);
  });

  it('answers 404 List not found for another account’s list', async () => {
    const list_id = await listWith([{ number: '0412000092' }], 'Mine');
    const other = await createAccount(t.app, { credits: 10, senders: ['Brand'] });
    const res = await listSend({ list_id, sender: 'Brand', message: 'x' }, other);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'List not found' });
  });

  it('does not charge test accounts', async () => {
    const sandbox = await createAccount(t.app, { test: true, senders: ['Brand'] });
    const list_id = (await t.api.post('/v1/lists', { auth: sandbox.auth, body: { name: 'S' } })).body.list_id;
    await t.api.post('/v1/list-contacts', { auth: sandbox.auth, body: { list_id, number: '0412000081' } });
    const res = await listSend({ list_id, sender: 'Brand', message: 'x' }, sandbox);
    expect(res.body).toMatchObject({ total_cost: 1, total_recipients: 1 });
    expect((await t.api.get('/v1/account', { auth: sandbox.auth })).body.credit_balance).toBe(0);
  });
});
