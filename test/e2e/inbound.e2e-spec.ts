import { DataSource } from 'typeorm';
import { InboundService } from '../../src/inbound/inbound.service';
import { createAccount, startTestApp, TestAccount, TestApp } from '../support/test-app';

describe('Inbound replies, opt-outs, GET /v1/inbound and POST /v1/test-inbound', () => {
  let t: TestApp;
  let sandbox: TestAccount;
  const tomorrow = () => new Date(Date.now() + 86_400_000).toISOString().slice(0, 19);

  beforeAll(async () => {
    // No delivery workers: pending messages stay unclaimed, so an opt-out can cancel them.
    t = await startTestApp({ appRole: 'api' });
  });
  beforeEach(async () => {
    sandbox = await createAccount(t.app, { test: true, senders: ['Brand', '61400000001', '61400000002'] });
  });
  afterAll(() => t.close());

  const inbound = (body: Record<string, unknown>, a = sandbox) => t.api.post('/v1/test-inbound', { auth: a.auth, body });
  const list = (query: Record<string, string | number> = {}, a = sandbox) => t.api.get('/v1/inbound', { auth: a.auth, query });

  it('stores a reply correlated with the most recent message from that number to that mobile', async () => {
    await t.api.post('/v1/messages', { auth: sandbox.auth, body: { messages: [{ to: '0412000001', message: 'first', sender: '61400000001', custom_ref: 'old' }] } });
    const latest = await t.api.post('/v1/messages', {
      auth: sandbox.auth,
      body: { messages: [{ to: '0412000001', message: 'second', sender: '61400000001', custom_ref: 'new' }] },
    });
    await t.api.post('/v1/messages', { auth: sandbox.auth, body: { messages: [{ to: '0412000001', message: 'other number', sender: '61400000002', custom_ref: 'other' }] } });
    const res = await inbound({ from: '0412 000 001', message: 'Thanks!', to: '61400000001' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'complete', message_id: expect.any(String), type: 'inbound' });
    const stored = (await list()).body;
    expect(stored).toMatchObject({ status: 'complete', total: 1, limit: 100, offset: 0 });
    expect(stored.results[0]).toEqual({
      message_id: res.body.message_id,
      from: '61412000001',
      to: '61400000001',
      message: 'Thanks!',
      received_at: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
      type: 'inbound',
      original_message_id: latest.body.results[0].message_id,
      original_custom_ref: 'new',
    });
  });

  it('accepts the receiving number in local form', async () => {
    const res = await inbound({ from: '0412000012', message: 'local', to: '0400000002' });
    expect(res.status).toBe(200);
    expect((await list()).body.results[0]).toMatchObject({ to: '61400000002', message: 'local' });
  });

  it('defaults `to` to the account’s first dedicated or shared number and leaves original_* empty without history', async () => {
    await inbound({ from: '0412000002', message: 'hello?' });
    expect((await list()).body.results[0]).toMatchObject({ to: '61400000001', original_message_id: '', original_custom_ref: '' });
  });

  it.each(['STOP', 'stop', 'Stop please', 'STOP.', 'stopall', 'Unsubscribe me', 'cancel', 'END', 'quit'])('treats "%s" as an opt-out', async (text) => {
    const res = await inbound({ from: '0412000003', message: text });
    expect(res.body.type).toBe('unsubscribe');
  });

  it.each(['Stopping by later', 'please stop', 'ENDGAME', 'Quitting'])('treats "%s" as an ordinary reply', async (text) => {
    expect((await inbound({ from: '0412000004', message: text })).body.type).toBe('inbound');
  });

  it('applies every opt-out effect: unsubscribed (source reply), out of every list, scheduled and pending messages cancelled with refunds', async () => {
    const live = await createAccount(t.app, { credits: 100, senders: ['61400000009'] });
    const list_id = (await t.api.post('/v1/lists', { auth: live.auth, body: { name: 'Members' } })).body.list_id;
    await t.api.post('/v1/list-contacts', { auth: live.auth, body: { list_id, number: '0412000005' } });
    await t.api.post('/v1/list-contacts', { auth: live.auth, body: { list_id, number: '0412000006' } });
    const sent = await t.api.post('/v1/messages', {
      auth: live.auth,
      body: {
        messages: [
          { to: '0412000005', message: 'a'.repeat(200), sender: '61400000009', scheduled_for: tomorrow() },
          { to: '0412000005', message: 'now', sender: '61400000009' },
          { to: '0412000006', message: 'keep', sender: '61400000009', scheduled_for: tomorrow() },
        ],
      },
    });
    expect((await t.api.get('/v1/account', { auth: live.auth })).body.credit_balance).toBe(96);
    // A live account's numbers receive real replies through the carrier; the service takes the same path.
    const stored = await t.app.get(InboundService).receive({ from: '61412000005', to: '61400000009', text: 'STOP', receivedAt: new Date() });
    expect(stored).toMatchObject({ type: 'unsubscribe', accountId: live.accountId });

    const unsub = (await t.api.get('/v1/unsubscribes', { auth: live.auth })).body.results;
    expect(unsub).toEqual([{ number: '61412000005', source: 'reply', unsubscribed_at: expect.any(String) }]);
    expect((await t.api.get('/v1/list-contacts', { auth: live.auth, query: { list_id } })).body.results.map((c: { number: string }) => c.number)).toEqual(['61412000006']);
    const statuses = await Promise.all(
      sent.body.results.map(
        async (r: { message_id: string }) => (await t.api.get('/v1/messages', { auth: live.auth, query: { message_id: r.message_id } })).body.results[0].status,
      ),
    );
    expect(statuses).toEqual(['cancelled', 'cancelled', 'scheduled']);
    expect((await t.api.get('/v1/account', { auth: live.auth })).body.credit_balance).toBe(99);
    const [{ sum }] = await t.app.get(DataSource).query('SELECT sum(amount)::int AS sum FROM credit_ledger WHERE account_id = $1', [live.accountId]);
    expect(sum).toBe(9900);
    expect((await list({ type: 'unsubscribe' }, live)).body.results[0]).toMatchObject({ from: '61412000005', type: 'unsubscribe', message: 'STOP' });
  });

  it('routes a reply on a shared number to the account that last wrote to that mobile', async () => {
    const a = await createAccount(t.app, { test: true, senders: [] });
    const b = await createAccount(t.app, { test: true, senders: [] });
    for (const acct of [a, b]) await t.app.get(DataSource).query(`INSERT INTO senders (account_id, value, type) VALUES ($1, '61400000077', 'shared')`, [acct.accountId]);
    await t.api.post('/v1/messages', { auth: b.auth, body: { messages: [{ to: '0412000007', message: 'from b', sender: '61400000077' }] } });
    const stored = await t.app.get(InboundService).receive({ from: '61412000007', to: '61400000077', text: 'hi', receivedAt: new Date() });
    expect(stored?.accountId).toBe(b.accountId);
    expect((await list({}, b)).body.total).toBe(1);
    expect((await list({}, a)).body.total).toBe(0);
  });

  it('drops a reply to a number no account owns', async () => {
    expect(await t.app.get(InboundService).receive({ from: '61412000008', to: '61499999999', text: 'anyone?', receivedAt: new Date() })).toBeNull();
  });

  it('answers 403 on a live account', async () => {
    const live = await createAccount(t.app, { credits: 1, senders: ['61400000010'] });
    const res = await inbound({ from: '0412000009', message: 'hi' }, live);
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: 'This endpoint is only available on test accounts' });
  });

  it.each([
    [{ message: 'x' }, 'from is required'],
    [{ from: '0412000010' }, 'message is required'],
    [{ from: '0298765432', message: 'x' }, 'Invalid phone number format'],
    [{ from: '0412000010', message: 'x', to: '61499999999' }, 'to must be one of the account’s dedicated or shared numbers'],
  ])('answers 400 for %j', async (body, error) => {
    const res = await inbound(body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error });
  });

  it('filters GET /v1/inbound by type and dates and pages it, newest first', async () => {
    await inbound({ from: '0412000011', message: 'one' });
    await inbound({ from: '0412000011', message: 'STOP' });
    await inbound({ from: '0412000011', message: 'three' });
    expect((await list({ type: 'inbound' })).body.results.map((r: { message: string }) => r.message)).toEqual(['three', 'one']);
    expect((await list({ limit: 1, offset: 1 })).body.results.map((r: { message: string }) => r.message)).toEqual(['STOP']);
    const today = new Date().toISOString().slice(0, 10);
    expect((await list({ from: today, to: today })).body.total).toBe(3);
    expect((await list({ to: '2020-01-01' })).body.total).toBe(0);
    expect((await list({ type: 'reply' })).body).toEqual({ error: 'Invalid type filter. Valid values: inbound, unsubscribe' });
    expect((await list({ from: '21-11-2026' })).body).toEqual({ error: 'Invalid from date; expected format YYYY-MM-DD' });
    expect((await list({ to: '2026-02-31' })).body).toEqual({ error: 'Invalid to date; expected format YYYY-MM-DD' });
  });
});
