import { DataSource } from 'typeorm';
import { Clock } from '../../src/common/time/clock';
import { brakeLimits, brakeWindow, fits } from '../../src/sending-brake/sending-brake.policy';
import { SendingBrakeRepository } from '../../src/sending-brake/sending-brake.repository';
import { SendingBrakeService } from '../../src/sending-brake/sending-brake.service';
import { accountWithOwner, signedIn, userWith } from '../support/dashboard';
import { textOf } from '../support/page-client';
import { runCli } from '../support/run-cli';
import { SmtpPeer } from '../support/smtp-peer';
import { createAccount, startTestApp, TestApp } from '../support/test-app';

jest.setTimeout(180_000);

/** The value of a hidden input on a page. */
function inputValue(html: string, name: string): string {
  const found = new RegExp(`name="${name}" value="([^"]*)"`).exec(html);
  if (!found) throw new Error(`no input ${name} on the page`);
  return found[1];
}

const PAUSED = 'Sending is paused for unusual volume; contact support or an account owner to release it';
const OPERATORS = ['ops-one@example.com.au', 'ops-two@example.com.au'];

/**
 * The spending brake with small thresholds: a new account may send 20 messages in an hour (allowance),
 * an account with history 3 times its busiest recent hour. Every send path is held once it trips.
 */
describe('The sending brake', () => {
  const smtp = new SmtpPeer();
  let t: TestApp;
  let db: DataSource;

  beforeAll(async () => {
    await smtp.start();
    process.env.SMTP_URL = smtp.url;
    t = await startTestApp({ sendingBrakeAllowance: 20, sendingBrakeMultiplier: 3, operatorEmail: OPERATORS.join(', ') });
    db = t.app.get(DataSource);
    // From 20 minutes into the current hour, at the real pace: every test stays within one clock hour.
    const hour = 3_600_000;
    const start = Date.now();
    const from = Math.floor(start / hour) * hour + 20 * 60_000;
    t.app.get(Clock).now = () => new Date(from + (Date.now() - start));
  });
  afterAll(async () => {
    await t?.close();
    delete process.env.SMTP_URL;
    await smtp.stop();
  });

  const numbers = (count: number, from: number) => Array.from({ length: count }, (_, i) => `0412${String(from + i).padStart(6, '0')}`);
  const batch = (count: number, from: number) => ({ messages: numbers(count, from).map((to) => ({ to, message: 'Your order is ready', sender: 'Harbour' })) });
  const post = (auth: string, count: number, from: number) => t.api.post('/v1/messages', { auth, body: batch(count, from) });
  const messageCount = async (accountId: number) => Number((await db.query(`SELECT count(*) AS n FROM messages WHERE account_id = $1`, [accountId]))[0].n);
  const balance = async (auth: string) => (await t.api.get('/v1/account', { auth })).body.credit_balance as number;
  const audit = async (accountId: number) =>
    (await db.query(`SELECT actor, action, detail FROM audit_log WHERE account_id = $1 AND action LIKE 'sending.%' ORDER BY id`, [accountId])) as Array<{
      actor: string;
      action: string;
      detail: string;
    }>;

  it('holds a new account over its starting allowance on every send path, emails its owner and the operators once, shows it on every page, and the CLI releases it', async () => {
    const acct = await accountWithOwner(t.app, { credits: 1000, senders: ['Harbour'] });
    const list = (await t.api.post('/v1/lists', { auth: acct.auth, body: { name: 'Everyone' } })).body.list_id as number;
    for (const number of numbers(3, 900)) await t.api.post('/v1/list-contacts', { auth: acct.auth, body: { list_id: list, number } });

    // 15 + 5 = 20: the allowance exactly.
    expect((await post(acct.auth, 15, 0)).status).toBe(200);
    expect((await post(acct.auth, 5, 100)).status).toBe(200);
    const before = await balance(acct.auth);
    // One more message would make 21: refused, nothing written or charged, and the account is paused.
    const held = await post(acct.auth, 1, 200);
    expect([held.status, held.body]).toEqual([403, { error: PAUSED }]);
    expect(await messageCount(acct.accountId)).toBe(20);
    expect(await balance(acct.auth)).toBe(before);

    // Now every path refuses, even a single message well within any limit.
    expect((await post(acct.auth, 1, 300)).body).toEqual({ error: PAUSED });
    const listSend = await t.api.post('/v1/list-send', { auth: acct.auth, body: { list_id: list, sender: 'Harbour', message: 'Hello' } });
    expect([listSend.status, listSend.body]).toEqual([403, { error: PAUSED }]);
    const owner = await signedIn(t.app, acct.ownerEmail);
    const page = await owner.get('/send');
    const res = await owner.post('/send', {
      form_key: inputValue(page.html, 'form_key'),
      to_kind: 'numbers',
      numbers: '0412 700 001',
      sender: 'Harbour',
      when: 'now',
      message: 'Hi',
    });
    expect(res.status).toBe(403);
    expect(textOf(res.html)).toContain(PAUSED);
    expect(await messageCount(acct.accountId)).toBe(20);

    // The notice on every page, for everyone; the owner is pointed at the release.
    const viewer = await signedIn(t.app, await userWith(t.app, acct.accountId, []), undefined, '10.7.0.2');
    for (const path of ['/overview', '/messages', '/profile']) expect(textOf((await viewer.get(path)).html)).toContain('Sending is paused for unusual volume.');
    expect(textOf((await viewer.get('/overview')).html)).toContain('Ask the account owner or support to release it.');
    expect(textOf((await owner.get('/overview')).html)).toContain('Review and release it on Settings › Security.');

    // Told once: the owner and each operator, one mail each, however many sends were refused.
    const ownerMail = await smtp.mailTo(acct.ownerEmail, /^Sending paused on /);
    expect(ownerMail.text).toContain('over its limit of 20');
    for (const to of OPERATORS) expect((await smtp.mailTo(to, /^Sending brake: account \d+ /)).text).toContain(`account:release-brake --account ${acct.accountId}`);
    await new Promise((r) => setTimeout(r, 300));
    expect(smtp.mailsTo(acct.ownerEmail).filter((m) => /Sending paused/.test(m.subject))).toHaveLength(1);
    expect(smtp.mailsTo(OPERATORS[0])).toHaveLength(1);
    expect(await audit(acct.accountId)).toEqual([{ actor: 'sending brake', action: 'sending.paused', detail: '21 messages in the last hour, over the limit of 20' }]);

    // The operator releases it: JSON out, audited; the volume that tripped it is now its baseline.
    const help = await runCli('account:release-brake', '--help');
    expect([help.code, help.stdout]).toEqual([0, expect.stringContaining('--account ID')]);
    const released = await runCli('account:release-brake', '--account', String(acct.accountId));
    expect([released.code, released.stderr]).toEqual([0, '']);
    expect(released.json).toEqual({ account_id: acct.accountId, released: true, paused_at: expect.any(String), paused_volume: 21, sending: 'allowed' });
    expect((await runCli('account:release-brake', '--account', String(acct.accountId))).json).toMatchObject({ released: false });
    expect((await runCli('account:release-brake', '--account', '99999999')).code).not.toBe(0);
    expect((await audit(acct.accountId)).map((a) => [a.actor, a.action])).toEqual([
      ['sending brake', 'sending.paused'],
      ['operator (CLI)', 'sending.released'],
    ]);

    expect((await post(acct.auth, 1, 400)).status).toBe(200);
    expect((await t.api.post('/v1/list-send', { auth: acct.auth, body: { list_id: list, sender: 'Harbour', message: 'Hello' } })).status).toBe(200);
    expect(textOf((await viewer.get('/overview')).html)).not.toContain('Sending is paused');
    // Baseline 21 × 3 = 63 in the hour: 24 counted so far (20, 1, and the list's 3), so 39 more fit and then nothing.
    expect((await post(acct.auth, 39, 500)).status).toBe(200);
    expect((await post(acct.auth, 1, 600)).body).toEqual({ error: PAUSED });
    expect((await audit(acct.accountId)).at(-1)).toEqual({ actor: 'sending brake', action: 'sending.paused', detail: '64 messages in the last hour, over the limit of 63' });
  });

  it('lets the owner release it on Settings › Security (audited), and nobody else', async () => {
    const acct = await accountWithOwner(t.app, { credits: 1000, senders: ['Harbour'] });
    expect((await post(acct.auth, 21, 0)).body).toEqual({ error: PAUSED });
    const staff = await signedIn(t.app, await userWith(t.app, acct.accountId, ['send_messages', 'manage_settings']), undefined, '10.7.0.3');
    expect((await staff.post('/settings/security/release-brake', {})).status).toBe(403);

    const owner = await signedIn(t.app, acct.ownerEmail, undefined, '10.7.0.4');
    const security = textOf((await owner.get('/settings/security')).html);
    expect(security).toContain('Sending is paused since');
    expect(security).toContain('21 messages in the last hour, over the limit of 20');
    const done = await owner.post('/settings/security/release-brake', {});
    expect([done.status, done.location]).toEqual([303, '/settings/security?notice=brake_released']);
    expect(textOf((await owner.get(done.location!)).html)).toContain('Sending is released.');
    expect((await audit(acct.accountId)).map((a) => [a.actor, a.action])).toEqual([
      ['sending brake', 'sending.paused'],
      [acct.ownerEmail, 'sending.released'],
    ]);
    expect((await post(acct.auth, 21, 100)).status).toBe(200);
  });

  it('admits concurrent sends only up to the limit: each send counts in its own transaction on the account’s row, so each sees those before it', async () => {
    // Fresh accounts, so the sends also race to make the account's first brake row.
    for (let round = 0; round < 3; round++) {
      const acct = await createAccount(t.app, { credits: 1000, senders: ['Harbour'] });
      // Five sends of 6 at once against an allowance of 20: three fit (18), two are held.
      const answers = await Promise.all([0, 1, 2, 3, 4].map((i) => post(acct.auth, 6, i * 100)));
      expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 200, 403, 403]);
      expect(await messageCount(acct.accountId)).toBe(18);
      const [state] = await db.query(`SELECT hour_count, paused_volume, paused_at IS NOT NULL AS paused FROM sending_brakes WHERE account_id = $1`, [acct.accountId]);
      expect(state).toEqual({ hour_count: 18, paused_volume: 24, paused: true });
      // Two sends held, one pause: each operator is told once.
      await smtp.mailTo(OPERATORS[1], new RegExp(`^Sending brake: account ${acct.accountId} `));
      await new Promise((r) => setTimeout(r, 300));
      expect(smtp.mailsTo(OPERATORS[1]).filter((m) => m.subject.startsWith(`Sending brake: account ${acct.accountId} `))).toHaveLength(1);
    }
  });

  it('computes in SQL what the policy says in TypeScript (rolling hours, the previous hour’s share, the fading baseline)', async () => {
    const acct = await createAccount(t.app, { credits: 10, senders: ['Harbour'] });
    const repo = t.app.get(SendingBrakeRepository);
    const limits = brakeLimits({ sendingBrakeAllowance: 1000, sendingBrakeMultiplier: 10, sendingBrakeHalfLifeHours: 168 });
    const T0 = Date.UTC(2030, 0, 15, 10, 0, 0);
    const stored = { hourStart: new Date(T0), hourCount: 900, previousCount: 700, baseline: 450 };
    await db.query(`INSERT INTO sending_brakes (account_id, hour_start, hour_count, previous_count, baseline) VALUES ($1, $2, $3, $4, $5)`, [
      acct.accountId,
      stored.hourStart,
      stored.hourCount,
      stored.previousCount,
      stored.baseline,
    ]);
    for (const offset of [0, 0.25, 0.9, 1, 1.5, 2.2, 30, 200].map((h) => h * 3_600_000)) {
      const window = brakeWindow(new Date(T0 + offset));
      const expected = fits(stored, 0, window, limits);
      const state = await repo.stateOf(acct.accountId, window, limits);
      expect([offset, state!.lastHour]).toEqual([offset, expect.closeTo(expected.lastHour, 6)]);
      expect([offset, state!.limit]).toEqual([offset, expect.closeTo(expected.limit, 6)]);
    }
  });

  it('never counts or holds a test account', async () => {
    const test = await createAccount(t.app, { test: true, senders: ['Harbour'] });
    for (let i = 0; i < 3; i++) expect((await post(test.auth, 15, i * 100)).status).toBe(200);
    expect(await db.query(`SELECT * FROM sending_brakes WHERE account_id = $1`, [test.accountId])).toEqual([]);
    expect(await t.app.get(SendingBrakeService).state(test.accountId)).toBeNull();
  });
});
