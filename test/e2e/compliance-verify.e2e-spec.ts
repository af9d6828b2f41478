import { DataSource } from 'typeorm';
import { MESSAGE_STATUS, WITH_PART_STATUS } from '../../src/delivery/state/message-status';
import { runCli } from '../support/run-cli';
import { createAccount, startTestApp, TestAccount, TestApp } from '../support/test-app';
import { until } from '../support/wait';

jest.setTimeout(120_000);

const LATER = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 19);

/**
 * `cli compliance:verify`: a clean account (STOP, its chosen confirmation, START, sends either side)
 * passes; each violation is then planted by writing rows directly, in an account of its own, to prove
 * the check that guards it reports it (and only that check).
 */
describe('cli compliance:verify', () => {
  let t: TestApp;
  let db: DataSource;

  beforeAll(async () => {
    t = await startTestApp({ webhookAllowPrivate: true });
    db = t.app.get(DataSource);
  });
  afterAll(() => t.close());

  const newAccount = () => createAccount(t.app, { test: true, senders: ['Brand', '61400000001'] });
  const send = async (acct: TestAccount, to: string, extra: Record<string, unknown> = {}) => {
    const res = await t.api.post('/v1/messages', { auth: acct.auth, body: { ...extra, messages: [{ to, message: 'Offer', sender: 'Brand' }] } });
    expect([res.status, res.body.results[0].status]).toEqual([200, 'success']);
    return res.body.results[0].message_id as string;
  };
  const statusOf = async (id: string) =>
    ((await db.query(`SELECT ${MESSAGE_STATUS} AS status FROM messages m ${WITH_PART_STATUS} WHERE m.id = $1`, [id])) as Array<{ status: string }>)[0].status;
  const claimed = (id: string) => until(async () => ['sent', 'delivered', 'failed'].includes(await statusOf(id)), `message ${id} claimed`);
  const createdAt = async (id: string) => ((await db.query(`SELECT created_at FROM messages WHERE id = $1`, [id])) as Array<{ created_at: Date }>)[0].created_at;
  const minutesBefore = (d: Date, n: number) => new Date(d.getTime() - n * 60_000);
  /** Plants a consent record (an opt-out or opt-in) at a chosen time, as if it had been committed then. */
  const plant = (acct: TestAccount, number: string, change: 'opt_in' | 'opt_out', at: Date) =>
    db.query(`INSERT INTO consent_records (account_id, number, change, source, recorded_at) VALUES ($1, $2, $3, 'api', $4)`, [acct.accountId, number, change, at]);

  async function verify(acct?: TestAccount) {
    const res = await runCli('compliance:verify', ...(acct ? ['--account', String(acct.accountId)] : []));
    return { ...res, checks: [...new Set((res.json?.violations ?? []).map((v: { check: string }) => v.check))] };
  }

  it('passes an account whose opted-out number got only the confirmation it chose, listing that one', async () => {
    const acct = await newAccount();
    await t.api.post('/v1/keyword-rules', { auth: acct.auth, body: { match: 'first_word', keyword: 'STOP', reply: 'You are unsubscribed' } });
    const before = await send(acct, '0412300001');
    await claimed(before);
    expect((await t.api.post('/v1/test-inbound', { auth: acct.auth, body: { from: '61412300001', message: 'STOP', to: '61400000001' } })).status).toBe(200);
    const blocked = await t.api.post('/v1/messages', { auth: acct.auth, body: { messages: [{ to: '0412300001', message: 'Offer', sender: 'Brand' }] } });
    expect(blocked.body.results[0].status).toBe('blocked');
    const [confirmation] = (await db.query(`SELECT m.id, m.send_id::int AS send_id FROM messages m JOIN sends s ON s.id = m.send_id WHERE m.account_id = $1 AND s.kind = 'reply'`, [
      acct.accountId,
    ])) as Array<{ id: string; send_id: number }>;
    await claimed(confirmation.id);
    expect((await t.api.post('/v1/test-inbound', { auth: acct.auth, body: { from: '61412300001', message: 'START', to: '61400000001' } })).status).toBe(200);
    await claimed(await send(acct, '0412300001'));

    const res = await verify(acct);
    expect([res.code, res.stderr, res.json.ok, res.json.violations, res.json.truncated]).toEqual([0, '', true, [], []]);
    expect(res.json.checks).toEqual(['claimed_after_opt_out', 'list_recipient_opted_out']);
    expect(res.json.accounts_checked).toBe(1);
    expect(res.json.ignored_unsubscribes).toEqual([
      { account_id: acct.accountId, send_id: confirmation.send_id, kind: 'reply', message_id: confirmation.id, number: '61412300001', opted_out_at: expect.any(String) },
    ]);
  });

  it('reports a message claimed after its number opted out, by a consent record or an older unsubscribe, and not one opted back in first', async () => {
    const acct = await newAccount();
    const [optedOut, legacy, backIn] = [await send(acct, '0412300011'), await send(acct, '0412300012'), await send(acct, '0412300013')];
    for (const id of [optedOut, legacy, backIn]) await claimed(id);
    await plant(acct, '61412300011', 'opt_out', minutesBefore(await createdAt(optedOut), 2));
    await db.query(`INSERT INTO unsubscribes (account_id, number, source, created_at) VALUES ($1, '61412300012', 'api', $2)`, [
      acct.accountId,
      minutesBefore(await createdAt(legacy), 5),
    ]);
    await plant(acct, '61412300013', 'opt_out', minutesBefore(await createdAt(backIn), 2));
    await plant(acct, '61412300013', 'opt_in', minutesBefore(await createdAt(backIn), 1));

    const res = await verify(acct);
    expect([res.code, res.stderr, res.json.ok, res.checks]).toEqual([1, 'error: compliance:verify found 2 violation(s)\n', false, ['claimed_after_opt_out']]);
    expect(res.json.violations.map((v: { message_id: string; number: string }) => [v.message_id, v.number])).toEqual([
      [optedOut, '61412300011'],
      [legacy, '61412300012'],
    ]);
    const opted = minutesBefore(await createdAt(optedOut), 2).toISOString();
    expect(res.json.violations[0]).toEqual({
      check: 'claimed_after_opt_out',
      account_id: acct.accountId,
      send_id: expect.any(Number),
      message_id: optedOut,
      number: '61412300011',
      opted_out_at: opted,
      problem: expect.stringMatching(
        new RegExp(
          `^message ${optedOut} to 61412300011 was claimed for dispatch after 61412300011 opted out at ${opted} \\(due and accepted by .+; its send did not ignore unsubscribes\\)$`,
        ),
      ),
    });
  });

  it('lists, without failing, a message a send that ignored unsubscribes sent to an opted-out number', async () => {
    const acct = await newAccount();
    expect((await t.api.post('/v1/unsubscribes', { auth: acct.auth, body: { number: '0412300021' } })).status).toBe(200);
    const id = await send(acct, '0412300021', { ignore_unsubscribes: true });
    await claimed(id);
    const res = await verify(acct);
    expect([res.code, res.json.violations]).toEqual([0, []]);
    expect(res.json.ignored_unsubscribes).toEqual([expect.objectContaining({ message_id: id, kind: 'batch', number: '61412300021' })]);
  });

  it('reports a list send that addressed a number opted out when it was accepted (before any claim)', async () => {
    const acct = await newAccount();
    const list_id = (await t.api.post('/v1/lists', { auth: acct.auth, body: { name: 'Club' } })).body.list_id;
    for (const number of ['0412300031', '0412300032']) await t.api.post('/v1/list-contacts', { auth: acct.auth, body: { list_id, number } });
    const sent = await t.api.post('/v1/list-send', { auth: acct.auth, body: { list_id, sender: 'Brand', message: 'Sale', scheduled_for: LATER } });
    expect(sent.status).toBe(200);
    const [{ created_at }] = (await db.query(`SELECT created_at FROM sends WHERE id = $1`, [sent.body.send_id])) as Array<{ created_at: Date }>;
    await plant(acct, '61412300031', 'opt_out', minutesBefore(created_at, 1));
    // Opted out only after the send was accepted: its scheduled message is then the opt-out's to cancel, not a violation.
    await plant(acct, '61412300032', 'opt_out', new Date(created_at.getTime() + 1000));

    const res = await verify(acct);
    expect([res.code, res.checks, res.json.violations.length]).toEqual([1, ['list_recipient_opted_out'], 1]);
    expect(res.json.violations[0]).toMatchObject({ send_id: sent.body.send_id, number: '61412300031' });
    expect(res.json.violations[0].problem).toMatch(new RegExp(`^list send ${sent.body.send_id} addressed message [0-9a-f-]{36} to 61412300031, opted out since `));

    // Every account at once finds it too.
    const all = await verify();
    expect(all.code).toBe(1);
    expect(all.json.accounts_checked).toBeGreaterThanOrEqual(4);
    expect(all.json.violations.some((v: { send_id: number }) => v.send_id === sent.body.send_id)).toBe(true);
  });

  it('refuses a bad --account with a usage error and an unknown one as not found', async () => {
    expect(await runCli('compliance:verify', '--account', 'x')).toMatchObject({ code: 2, stderr: 'error: --account must be a positive integer\n' });
    expect(await runCli('compliance:verify', '--account', '999999')).toMatchObject({ code: 1, stderr: 'error: Account 999999 not found\n' });
    const help = await runCli('compliance:verify', '--help');
    expect([help.code, help.stdout]).toEqual([0, expect.stringContaining('usage: npm run -s cli -- compliance:verify [--account ID]')]);
  });
});
