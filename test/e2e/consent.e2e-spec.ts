import { DataSource } from 'typeorm';
import { createAccount, startTestApp, TestAccount, TestApp } from '../support/test-app';

describe('Consent records: every opt-in and opt-out, append-only, GET /v1/consent and its CSV export', () => {
  let t: TestApp;
  let acct: TestAccount;
  let db: DataSource;

  beforeAll(async () => {
    t = await startTestApp({ appRole: 'api' });
    db = t.app.get(DataSource);
  });
  beforeEach(async () => {
    acct = await createAccount(t.app, { test: true, name: 'Corner Cafe', senders: ['61400000001'] });
  });
  afterAll(() => t.close());

  const reply = (from: string, message: string) => t.api.post('/v1/test-inbound', { auth: acct.auth, body: { from, message, to: '61400000001' } });
  const consent = (query: Record<string, string | number> = {}) => t.api.get('/v1/consent', { auth: acct.auth, query });
  const keyIdOf = async (username: string) => (await db.query(`SELECT id FROM api_keys WHERE username = $1`, [username]))[0].id as number;

  it('records a STOP reply, START and a keyword list join with the inbound message as evidence, oldest first', async () => {
    const list_id = (await t.api.post('/v1/lists', { auth: acct.auth, body: { name: 'Club' } })).body.list_id;
    await t.api.post('/v1/keyword-rules', { auth: acct.auth, body: { match: 'first_word', keyword: 'JOIN', add_to_list_id: list_id } });
    const stop = (await reply('0412000301', 'STOP')).body.message_id;
    const start = (await reply('0412000301', 'start')).body.message_id;
    const join = (await reply('0412000301', 'join')).body.message_id;
    // A second STOP after the first changes nothing: a second opt-out, recorded.
    await reply('0412000301', 'STOP');
    await reply('0412000301', 'STOP');
    const res = await consent({ number: '0412 000 301' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'complete', total: 4, limit: 100, offset: 0 });
    const base = {
      number: '61412000301',
      message_id: null,
      client_address: null,
      api_key_id: null,
      user_id: null,
      recorded_at: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
    };
    expect(res.body.results).toEqual([
      { ...base, change: 'opt_out', source: 'reply', inbound_message_id: stop, detail: null },
      { ...base, change: 'opt_in', source: 'start', inbound_message_id: start, detail: 'START' },
      { ...base, change: 'opt_in', source: 'keyword', inbound_message_id: join, detail: `JOIN: joined list ${list_id}` },
      { ...base, change: 'opt_out', source: 'reply', inbound_message_id: expect.any(String), detail: null },
    ]);
  });

  it('records the API key that unsubscribed a number and the one that removed it', async () => {
    await t.api.post('/v1/unsubscribes', { auth: acct.auth, body: { number: '0412000302' } });
    await t.api.delete('/v1/unsubscribes', { auth: acct.auth, body: { number: '0412000302' } });
    await t.api.delete('/v1/unsubscribes', { auth: acct.auth, body: { number: '0412000302' } });
    const key = await keyIdOf(acct.username);
    expect((await consent({ number: '0412000302' })).body.results.map((r: { change: string; source: string; api_key_id: number }) => [r.change, r.source, r.api_key_id])).toEqual([
      ['opt_out', 'api', key],
      ['opt_in', 'api', key],
    ]);
  });

  it('filters by period and exports CSV of a number or a period', async () => {
    await reply('0412000303', 'STOP');
    await reply('0412000304', 'STOP');
    const today = new Date().toISOString().slice(0, 10);
    expect((await consent({ from: today, to: today })).body.total).toBe(2);
    expect((await consent({ to: '2020-01-01' })).body.total).toBe(0);
    const csv = await t.api.get('/v1/consent/export', { auth: acct.auth, query: { number: '0412000304' } });
    expect(csv.status).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    const lines = csv.text.trimEnd().split('\r\n');
    expect(lines[0]).toBe('number,change,source,recorded_at,inbound_message_id,message_id,client_address,api_key_id,user_id,detail');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(/^61412000304,opt_out,reply,\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,[0-9a-f-]{36},,,,,$/);
    expect((await t.api.get('/v1/consent/export', { auth: acct.auth, query: { from: today } })).text.trimEnd().split('\r\n')).toHaveLength(3);
  });

  it('keeps records to their account', async () => {
    await reply('0412000305', 'STOP');
    const other = await createAccount(t.app, { test: true });
    expect((await t.api.get('/v1/consent', { auth: other.auth, query: { number: '0412000305' } })).body.total).toBe(0);
  });

  it.each([
    [{ number: '0298765432' }, 'Invalid phone number format'],
    [{ from: '2026-13-01' }, 'Invalid from date; expected format YYYY-MM-DD'],
  ])('answers 400 for %j', async (query, error) => {
    const res = await consent(query);
    expect([res.status, res.body]).toEqual([400, { error }]);
  });

  it('refuses to change or remove a record, in the database itself; the account’s own deletion takes them', async () => {
    await reply('0412000306', 'STOP');
    await expect(db.query(`UPDATE consent_records SET change = 'opt_in' WHERE account_id = $1`, [acct.accountId])).rejects.toThrow(/append-only: UPDATE refused/);
    await expect(db.query(`DELETE FROM consent_records WHERE account_id = $1`, [acct.accountId])).rejects.toThrow(/append-only: DELETE refused/);
    await expect(db.query(`TRUNCATE consent_records`)).rejects.toThrow(/append-only: TRUNCATE refused/);
    expect((await consent()).body.total).toBe(1);
    const gone = await createAccount(t.app, { test: true, senders: ['61400000099'] });
    await t.api.post('/v1/unsubscribes', { auth: gone.auth, body: { number: '0412000307' } });
    await db.query(`DELETE FROM accounts WHERE id = $1`, [gone.accountId]);
    expect((await db.query(`SELECT count(*)::int AS n FROM consent_records WHERE account_id = $1`, [gone.accountId]))[0].n).toBe(0);
  });
});
