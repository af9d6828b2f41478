import { DataSource } from 'typeorm';
import { uuidAt } from '../../src/database/partitioning/partition-bounds';
import { runCli } from '../support/run-cli';
import { createAccount, startTestApp, TestAccount, TestApp } from '../support/test-app';

const LATER = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 19);

/**
 * `cli ledger:verify`: clean books pass; each invariant is then broken on purpose, in an account of
 * its own, to prove the check that guards it can fail (and only that check).
 */
describe('cli ledger:verify', () => {
  let t: TestApp;
  let db: DataSource;

  beforeAll(async () => {
    t = await startTestApp({ testReceiptDelayMs: 60_000 });
    db = t.app.get(DataSource);
  });
  afterAll(() => t.close());

  /** A live account with sends, scheduled messages, and cancellations by send, message and custom_ref. */
  async function busyAccount(options: { test?: boolean } = {}) {
    const acct = await createAccount(t.app, { credits: 50, senders: ['Brand'], test: options.test });
    const send = async (messages: object[]) => (await t.api.post('/v1/messages', { auth: acct.auth, body: { messages } })).body;
    const now = await send([
      { to: '0412345671', message: 'now', sender: 'Brand' },
      { to: '0412345672', message: 'x'.repeat(200), sender: 'Brand' },
      { to: 'nope', message: 'error entry', sender: 'Brand' },
    ]);
    const later = await send([
      { to: '0412345673', message: 'later', sender: 'Brand', scheduled_for: LATER, custom_ref: 'promo' },
      { to: '0412345674', message: 'later', sender: 'Brand', scheduled_for: LATER, custom_ref: 'promo' },
      { to: '0412345675', message: 'later', sender: 'Brand', scheduled_for: LATER },
      { to: '0412345676', message: 'later', sender: 'Brand', scheduled_for: LATER },
    ]);
    const single = await send([{ to: '0412345677', message: 'later', sender: 'Brand', scheduled_for: LATER }]);
    const bySend = await send([{ to: '0412345678', message: 'later', sender: 'Brand', scheduled_for: LATER }]);
    expect((await t.api.delete('/v1/messages', { auth: acct.auth, body: { custom_ref: 'promo' } })).body.cancelled_count).toBe(2);
    expect((await t.api.delete('/v1/messages', { auth: acct.auth, body: { message_id: single.results[0].message_id } })).status).toBe(200);
    expect((await t.api.delete('/v1/messages', { auth: acct.auth, body: { send_id: bySend.send_id } })).status).toBe(200);
    return { acct, now, later };
  }

  async function verify(acct?: TestAccount) {
    const res = await runCli('ledger:verify', ...(acct ? ['--account', String(acct.accountId)] : []));
    return { ...res, checks: [...new Set((res.json?.violations ?? []).map((v: { check: string }) => v.check))] };
  }

  const one = async <T>(text: string, params: unknown[] = []) => ((await db.query(text, params)) as T[])[0];

  it('passes clean books, for every account and for one, live and test', async () => {
    const live = await busyAccount();
    const test = await busyAccount({ test: true });
    for (const acct of [undefined, live.acct, test.acct]) {
      const res = await verify(acct);
      expect([res.code, res.stderr, res.json.ok, res.json.violations]).toEqual([0, '', true, []]);
      expect(res.json.checks).toEqual(['balance', 'send_debit', 'orphan_debit', 'refund_lines', 'refund_of_wrong_message', 'refunded_and_submitted', 'cancelled_not_refunded']);
    }
    expect((await verify(live.acct)).json.accounts_checked).toBe(1);
    expect((await verify()).json.accounts_checked).toBeGreaterThanOrEqual(2);
    // The refund lines name exactly the four cancelled messages, at their cost.
    expect(
      await one('SELECT count(*)::int AS n, sum(r.amount)::int AS total FROM credit_refund_lines r JOIN messages m ON m.id = r.message_id WHERE m.account_id = $1', [
        live.acct.accountId,
      ]),
    ).toEqual({
      n: 4,
      total: 400,
    });
  });

  const corruptions: Array<[string, string, (a: Awaited<ReturnType<typeof busyAccount>>) => Promise<void>]> = [
    [
      'a balance that is not the sum of its ledger',
      'balance',
      async ({ acct }) => void (await db.query('UPDATE accounts SET credit_balance = credit_balance + 1 WHERE id = $1', [acct.accountId])),
    ],
    [
      'a send debited twice',
      'send_debit',
      async ({ acct, now }) => {
        await db.query(`INSERT INTO credit_ledger (account_id, kind, amount, reference) VALUES ($1, 'debit', -300, $2)`, [acct.accountId, `send:${now.send_id}`]);
        await db.query('UPDATE accounts SET credit_balance = credit_balance - 300 WHERE id = $1', [acct.accountId]);
      },
    ],
    [
      'a send never debited',
      'send_debit',
      async ({ acct, now }) => {
        await db.query(`DELETE FROM credit_ledger WHERE account_id = $1 AND reference = $2`, [acct.accountId, `send:${now.send_id}`]);
        await db.query('UPDATE accounts SET credit_balance = credit_balance + 300 WHERE id = $1', [acct.accountId]);
      },
    ],
    [
      'a send debited for less than its messages cost',
      'send_debit',
      async ({ acct, now }) => {
        await db.query(`UPDATE credit_ledger SET amount = -200 WHERE account_id = $1 AND reference = $2`, [acct.accountId, `send:${now.send_id}`]);
        await db.query('UPDATE accounts SET credit_balance = credit_balance + 100 WHERE id = $1', [acct.accountId]);
      },
    ],
    [
      'a send whose total_cost is not what its messages cost',
      'send_debit',
      async ({ now }) => void (await db.query('UPDATE sends SET total_cost = total_cost + 100 WHERE id = $1', [now.send_id])),
    ],
    [
      'a debit that pays for no send',
      'orphan_debit',
      async ({ acct }) => {
        await db.query(`INSERT INTO credit_ledger (account_id, kind, amount, reference) VALUES ($1, 'debit', -100, 'send:999999999')`, [acct.accountId]);
        await db.query('UPDATE accounts SET credit_balance = credit_balance - 100 WHERE id = $1', [acct.accountId]);
      },
    ],
    [
      'a refund that names no message',
      'refund_lines',
      async ({ acct }) => {
        await db.query(`INSERT INTO credit_ledger (account_id, kind, amount, reference) VALUES ($1, 'refund', 100, 'gift')`, [acct.accountId]);
        await db.query('UPDATE accounts SET credit_balance = credit_balance + 100 WHERE id = $1', [acct.accountId]);
      },
    ],
    [
      'a refunded message that is no longer cancelled',
      'refund_of_wrong_message',
      async ({ acct }) =>
        void (await db.query(
          `UPDATE messages SET status = 'delivered' WHERE id = (SELECT r.message_id FROM credit_refund_lines r JOIN messages m ON m.id = r.message_id WHERE m.account_id = $1 LIMIT 1)`,
          [acct.accountId],
        )),
    ],
    [
      'a refunded message that was also submitted',
      'refunded_and_submitted',
      async ({ acct }) =>
        void (await db.query(
          `INSERT INTO message_parts (message_id, part_number, account_id, total_parts, carrier_id, smsc_id, status)
           SELECT r.message_id, 1, m.account_id, 1, 0, 'smsc-1', 'submitted' FROM credit_refund_lines r JOIN messages m ON m.id = r.message_id WHERE m.account_id = $1 LIMIT 1`,
          [acct.accountId],
        )),
    ],
    [
      'a paid message cancelled without a refund',
      'cancelled_not_refunded',
      async ({ acct }) =>
        void (await db.query(`UPDATE messages SET status = 'cancelled' WHERE account_id = $1 AND status = 'scheduled' AND to_number = '61412345675'`, [acct.accountId])),
    ],
  ];

  it.each(corruptions)('finds %s (check %s), exits 1 and says so on stderr', async (_what, check, corrupt) => {
    const busy = await busyAccount();
    await corrupt(busy);
    const res = await verify(busy.acct);
    expect([res.code, res.json.ok, res.checks]).toEqual([1, false, [check]]);
    expect(res.stderr).toBe(`error: ledger:verify found ${res.json.violations.length} violation(s)\n`);
    expect(res.json.violations.every((v: { account_id: number; problem: string }) => v.account_id === busy.acct.accountId && v.problem.length > 0)).toBe(true);
  });

  it('does not count what message retention dropped (a month of messages and parts), but does count messages missing after its horizon', async () => {
    const dropMessages = async (accountId: number) => {
      await db.query('DELETE FROM message_parts WHERE account_id = $1', [accountId]);
      await db.query('DELETE FROM messages WHERE account_id = $1', [accountId]);
    };
    // Sends from 14 months ago, past MESSAGE_RETENTION_MONTHS (13): their months were dropped, their sends,
    // debits and refund lines kept (the refunded messages' v7 ids carry that time).
    const old = await busyAccount();
    const fourteenMonthsAgo = uuidAt(Date.now() - 14 * 31 * 86_400_000);
    await db.query(`UPDATE sends SET created_at = now() - interval '14 months' WHERE account_id = $1`, [old.acct.accountId]);
    await db.query(
      `UPDATE credit_refund_lines r SET message_id = (substr($2, 1, 14) || substr(r.message_id::text, 15))::uuid
         FROM credit_ledger l WHERE l.id = r.ledger_entry_id AND l.account_id = $1`,
      [old.acct.accountId, fourteenMonthsAgo],
    );
    await dropMessages(old.acct.accountId);
    const kept = await verify(old.acct);
    expect([kept.code, kept.json.ok, kept.json.violations]).toEqual([0, true, []]);

    // The same rows missing from this month are still wrong.
    const recent = await busyAccount();
    await dropMessages(recent.acct.accountId);
    const res = await verify(recent.acct);
    expect([res.code, res.checks]).toEqual([1, ['send_debit', 'refund_of_wrong_message']]);
  });

  it('reports a debited test send', async () => {
    const busy = await busyAccount({ test: true });
    await db.query(`INSERT INTO credit_ledger (account_id, kind, amount, reference) VALUES ($1, 'debit', -300, $2)`, [busy.acct.accountId, `send:${busy.now.send_id}`]);
    await db.query(`UPDATE accounts SET credit_balance = credit_balance - 300 WHERE id = $1`, [busy.acct.accountId]);
    const res = await verify(busy.acct);
    expect([res.code, res.checks]).toEqual([1, ['send_debit']]);
    expect(res.json.violations[0].problem).toBe(
      `send ${busy.now.send_id} debited 1 time(s) for 3.00 but its messages cost 0.00 (debited once, or never for a test send or one that costs nothing)`,
    );
  });

  it('reports across all accounts without --account, naming each', async () => {
    const a = await busyAccount();
    const b = await busyAccount();
    await db.query('UPDATE accounts SET credit_balance = credit_balance + 7 WHERE id = ANY($1)', [[a.acct.accountId, b.acct.accountId]]);
    const res = await verify();
    expect(res.code).toBe(1);
    const balance = res.json.violations.filter((v: { check: string }) => v.check === 'balance').map((v: { account_id: number; problem: string }) => [v.account_id, v.problem]);
    // 50 granted, 9 debited by four sends, 4 refunded by three cancellations: 45.
    expect(balance).toEqual(
      expect.arrayContaining([
        [a.acct.accountId, 'balance 45.07 but the ledger sums to 45.00'],
        [b.acct.accountId, 'balance 45.07 but the ledger sums to 45.00'],
      ]),
    );
  });

  it('answers usage and unknown accounts like the other commands', async () => {
    expect(await runCli('ledger:verify', '--account', 'x')).toMatchObject({ code: 2, stderr: 'error: --account must be a positive integer\n' });
    expect(await runCli('ledger:verify', '--acount', '1')).toMatchObject({ code: 2 });
    expect(await runCli('ledger:verify', '--account', '999999')).toMatchObject({ code: 1, stderr: 'error: Account 999999 not found\n' });
  });
});
