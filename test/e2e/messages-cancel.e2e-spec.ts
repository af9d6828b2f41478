import { DataSource } from 'typeorm';
import { createAccount, startTestApp, TestAccount, TestApp } from '../support/test-app';

describe('DELETE /v1/messages', () => {
  let t: TestApp;
  let acct: TestAccount;
  const tomorrow = () => new Date(Date.now() + 86_400_000).toISOString().slice(0, 19);

  beforeAll(async () => {
    // Acceptance only: no delivery workers in this process, so statuses stay as the send left them.
    t = await startTestApp({ appRole: 'api' });
  });
  beforeEach(async () => {
    acct = await createAccount(t.app, { credits: 100, senders: ['Brand'] });
  });
  afterAll(() => t.close());

  const balance = async (a = acct) => (await t.api.get('/v1/account', { auth: a.auth })).body.credit_balance as number;
  const statusOf = async (id: string) => (await t.api.get('/v1/messages', { auth: acct.auth, query: { message_id: id } })).body.results[0].status;
  async function schedule(messages: Array<{ to: string; parts?: number; custom_ref?: string; now?: boolean }>) {
    const res = await t.api.post('/v1/messages', {
      auth: acct.auth,
      body: {
        messages: messages.map((m) => ({
          to: m.to,
          message: 'a'.repeat(m.parts && m.parts > 1 ? 153 * m.parts : 10),
          sender: 'Brand',
          custom_ref: m.custom_ref,
          scheduled_for: m.now ? undefined : tomorrow(),
        })),
      },
    });
    expect(res.status).toBe(200);
    return { sendId: res.body.send_id as number, ids: res.body.results.map((r: { message_id: string }) => r.message_id) as string[] };
  }

  it('cancels one scheduled message by message_id and refunds its credits in full', async () => {
    const { ids } = await schedule([{ to: '0412000001', parts: 3 }, { to: '0412000002' }]);
    expect(await balance()).toBe(96);
    const res = await t.api.delete('/v1/messages', { auth: acct.auth, body: { message_id: ids[0] } });
    expect(res.body).toEqual({ status: 'complete', message_id: ids[0], cancelled: true, credits_refunded: 3 });
    expect(await balance()).toBe(99);
    expect(await statusOf(ids[0])).toBe('cancelled');
    expect(await statusOf(ids[1])).toBe('scheduled');
  });

  it('answers 409 for a message that is not scheduled, and for a second cancellation', async () => {
    const { ids } = await schedule([{ to: '0412000003', now: true }, { to: '0412000004' }]);
    const pending = await t.api.delete('/v1/messages', { auth: acct.auth, body: { message_id: ids[0] } });
    expect(pending.status).toBe(409);
    expect(pending.body).toEqual({ error: 'Message is not in a scheduled state' });
    await t.api.delete('/v1/messages', { auth: acct.auth, body: { message_id: ids[1] } });
    const again = await t.api.delete('/v1/messages', { auth: acct.auth, body: { message_id: ids[1] } });
    expect(again.status).toBe(409);
    expect(await balance()).toBe(99); // refunded once
  });

  it('cancels every scheduled message of a send by send_id', async () => {
    const { sendId } = await schedule([{ to: '0412000005', parts: 2 }, { to: '0412000006' }, { to: '0412000007', now: true }]);
    const res = await t.api.delete('/v1/messages', { auth: acct.auth, body: { send_id: sendId } });
    expect(res.body).toEqual({ status: 'complete', send_id: sendId, cancelled_count: 2, credits_refunded: 3 });
    expect(await balance()).toBe(99);
    const again = await t.api.delete('/v1/messages', { auth: acct.auth, body: { send_id: sendId } });
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ error: 'No scheduled messages found for this send' });
  });

  it('cancels by custom_ref across sends', async () => {
    await schedule([{ to: '0412000008', custom_ref: 'promo' }]);
    await schedule([
      { to: '0412000009', custom_ref: 'promo' },
      { to: '0412000010', custom_ref: 'keep' },
    ]);
    const res = await t.api.delete('/v1/messages', { auth: acct.auth, body: { custom_ref: 'promo' } });
    expect(res.body).toEqual({ status: 'complete', custom_ref: 'promo', cancelled_count: 2, credits_refunded: 2 });
    expect(await balance()).toBe(99);
  });

  it('uses the first identifier in precedence order and never falls through', async () => {
    const { ids, sendId } = await schedule([
      { to: '0412000011', custom_ref: 'p' },
      { to: '0412000012', custom_ref: 'p' },
    ]);
    const byId = await t.api.delete('/v1/messages', { auth: acct.auth, body: { custom_ref: 'p', send_id: sendId, message_id: ids[0] } });
    expect(byId.body).toMatchObject({ message_id: ids[0], cancelled: true });
    const bySend = await t.api.delete('/v1/messages', { auth: acct.auth, body: { custom_ref: 'p', send_id: sendId } });
    expect(bySend.body).toMatchObject({ send_id: sendId, cancelled_count: 1 });
    const missing = await t.api.delete('/v1/messages', { auth: acct.auth, body: { message_id: '00000000-0000-4000-8000-000000000000', custom_ref: 'p' } });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ error: 'Message not found' });
  });

  it.each([
    [{}, 400, 'message_id, custom_ref, or send_id is required'],
    [{ message_id: '', custom_ref: '' }, 400, 'message_id, custom_ref, or send_id is required'],
    [{ message_id: 'nope' }, 404, 'Message not found'],
    [{ message_id: '00000000-0000-4000-8000-000000000000' }, 404, 'Message not found'],
    [{ send_id: 987654321 }, 404, 'Send not found'],
    [{ send_id: 'x' }, 400, 'send_id must be a positive integer'],
    [{ custom_ref: 'never-used' }, 404, 'No scheduled messages found with the given custom_ref'],
  ])('answers %j with %i', async (body, status, error) => {
    const res = await t.api.delete('/v1/messages', { auth: acct.auth, body });
    expect(res.status).toBe(status);
    expect(res.body).toEqual({ error });
  });

  it('answers 400 for a bodiless DELETE and for invalid JSON', async () => {
    const bodiless = await t.api.delete('/v1/messages', { auth: acct.auth, headers: { 'content-type': 'application/json' } });
    expect(bodiless.body).toEqual({ error: 'message_id, custom_ref, or send_id is required' });
    const broken = await t.api.delete('/v1/messages', { auth: acct.auth, rawBody: '{"send_id":', headers: { 'content-type': 'application/json' } });
    expect(broken.body).toEqual({ error: 'Request body is not valid JSON' });
  });

  it('treats another account’s messages and sends as unknown', async () => {
    const { ids, sendId } = await schedule([{ to: '0412000013', custom_ref: 'mine' }]);
    const other = await createAccount(t.app, { credits: 1 });
    expect((await t.api.delete('/v1/messages', { auth: other.auth, body: { message_id: ids[0] } })).body).toEqual({ error: 'Message not found' });
    expect((await t.api.delete('/v1/messages', { auth: other.auth, body: { send_id: sendId } })).body).toEqual({ error: 'Send not found' });
    expect((await t.api.delete('/v1/messages', { auth: other.auth, body: { custom_ref: 'mine' } })).status).toBe(404);
    expect(await statusOf(ids[0])).toBe('scheduled');
    expect(await balance(other)).toBe(1);
  });

  it('reports but does not move credits on test accounts', async () => {
    const sandbox = await createAccount(t.app, { test: true, senders: ['Brand'] });
    const sent = await t.api.post('/v1/messages', { auth: sandbox.auth, body: { messages: [{ to: '0412000014', message: 'x', sender: 'Brand', scheduled_for: tomorrow() }] } });
    const res = await t.api.delete('/v1/messages', { auth: sandbox.auth, body: { send_id: sent.body.send_id } });
    expect(res.body).toMatchObject({ cancelled_count: 1, credits_refunded: 1 });
    expect(await balance(sandbox)).toBe(0);
  });

  describe('a cancellation that fails inside its transaction', () => {
    const ds = () => t.app.get(DataSource);
    afterEach(async () => {
      await ds().query('DROP TRIGGER IF EXISTS fail_refund ON credit_ledger');
      await ds().query('DROP FUNCTION IF EXISTS fail_refund()');
    });

    it.each([
      ['message_id', (ids: string[]) => ({ message_id: ids[0] }), 'Failed to cancel message'],
      ['send_id', (_ids: string[], sendId: number) => ({ send_id: sendId }), 'Failed to cancel send'],
      ['custom_ref', () => ({ custom_ref: 'doomed' }), 'Failed to cancel messages'],
    ])('is rolled back completely and answered 500 (by %s)', async (_by, body, error) => {
      const { ids, sendId } = await schedule([
        { to: '0412000015', custom_ref: 'doomed' },
        { to: '0412000016', custom_ref: 'doomed' },
      ]);
      const before = await balance();
      // A real failure inside the transaction: the refund's ledger insert raises, after the UPDATE of the messages.
      await ds().query(`CREATE FUNCTION fail_refund() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'injected ledger failure'; END $$`);
      await ds().query(
        `CREATE TRIGGER fail_refund BEFORE INSERT ON credit_ledger FOR EACH ROW WHEN (NEW.kind = 'refund' AND NEW.account_id = ${acct.accountId}) EXECUTE FUNCTION fail_refund()`,
      );
      const res = await t.api.delete('/v1/messages', { auth: acct.auth, body: body(ids, sendId) });
      expect(res.status).toBe(500);
      expect(res.body).toEqual({ error });
      expect(await statusOf(ids[0])).toBe('scheduled');
      expect(await statusOf(ids[1])).toBe('scheduled');
      expect(await balance()).toBe(before);
    });
  });
});
