import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DataSource } from 'typeorm';
import { Clock } from '../../src/common/time/clock';
import { RenewalsService } from '../../src/purchases/renewals.service';
import { InvoiceMailer } from '../../src/purchases/invoice-mailer.service';
import { accountWithOwner, DashboardAccount } from '../support/dashboard';
import { addCard, buyNumber, enablePurchases } from '../support/purchases';
import { runCli } from '../support/run-cli';
import { SmtpPeer } from '../support/smtp-peer';
import { startTestApp, TestApp } from '../support/test-app';

const DAY = 24 * 60 * 60 * 1000;

/** Yearly renewals of bought numbers, driven by the injectable clock: charged before expiry, retried, released after the grace period. */
describe('Dedicated number renewals', () => {
  let t: TestApp;
  let db: DataSource;
  let clock: Clock;
  let now = Date.now();
  const smtp = new SmtpPeer();
  const dir = mkdtempSync(path.join(tmpdir(), 'renewals-'));
  let series = 0;

  beforeAll(async () => {
    await smtp.start();
    t = await startTestApp({ smtpUrl: smtp.url, purchaseJobsIntervalMs: 0, numberRenewalLeadDays: 7, numberRenewalRetryHours: 24, numberGraceDays: 3 });
    db = t.app.get(DataSource);
    clock = t.app.get(Clock);
    // Every service reads "now" from this one Clock; the tests move it.
    clock.now = () => new Date(now);
  });
  afterAll(async () => {
    await t.close();
    await smtp.stop();
  });

  async function stock(price: string): Promise<string> {
    const number = `04${70_000_000 + ++series}`;
    const file = path.join(dir, `stock-${series}.csv`);
    writeFileSync(file, `number,annual_price_ex_gst\n${number},${price}\n`);
    expect((await runCli('numbers:import', '--file', file)).json).toMatchObject({ added: 1 });
    return `61${number.slice(1)}`;
  }

  /** An account that claimed its free number and bought one at $120 a year. */
  async function owner(): Promise<{ acct: DashboardAccount; number: string; expiresAt: Date }> {
    now = Date.now();
    const acct = await accountWithOwner(t.app);
    await enablePurchases(t.app, acct);
    await addCard(t.app, acct.accountId);
    await stock('0');
    expect((await t.api.post('/v1/dedicated-numbers/free', { auth: acct.auth, body: { service_address: '1 George St, Sydney NSW 2000' } })).status).toBe(200);
    const number = await stock('120');
    const bought = await buyNumber(t, acct, { number });
    expect(bought.status).toBe(200);
    return { acct, number, expiresAt: new Date(`${bought.body.expires_at.replace(' ', 'T')}Z`) };
  }
  const subscription = async (number: string) =>
    (await db.query(`SELECT renewal_state, renewal_attempts, expires_at, released_at FROM number_subscriptions WHERE number = $1 ORDER BY id DESC LIMIT 1`, [number]))[0];
  const renewals = (number: string) => db.query(`SELECT state, amount_inc_gst_cents, card_last4 FROM purchases WHERE kind = 'renewal' AND number = $1 ORDER BY id`, [number]);
  /** The card now declines (as a real card may, e.g. cancelled by its bank). */
  const cardDeclines = (accountId: number, declines: boolean) =>
    db.query(`UPDATE payment_cards SET payment_method_id = regexp_replace(payment_method_id, '_(succeeds|declined)$', $2) WHERE account_id = $1`, [
      accountId,
      declines ? '_declined' : '_succeeds',
    ]);
  const run = async () => {
    const report = await t.app.get(RenewalsService).runDue();
    await t.app.get(InvoiceMailer).drain();
    return report;
  };

  it('charges the same card before expiry, once, extends 12 months and emails the invoice', async () => {
    const { acct, number, expiresAt } = await owner();
    now = expiresAt.getTime() - 8 * DAY;
    expect(await run()).toMatchObject({ renewed: 0, failed: 0 });
    now = expiresAt.getTime() - 6 * DAY;
    const [first, second] = await Promise.all([run(), run()]);
    expect(first.renewed + second.renewed).toBe(1);
    expect(await renewals(number)).toEqual([{ state: 'fulfilled', amount_inc_gst_cents: 13200, card_last4: '4242' }]);
    const sub = await subscription(number);
    expect(sub.renewal_state).toBe('active');
    expect(new Date(sub.expires_at).getUTCFullYear()).toBe(expiresAt.getUTCFullYear() + 1);
    expect(await run()).toMatchObject({ renewed: 0 });
    const mail = await smtp.mailTo(acct.ownerEmail, /^Tax invoice .*/);
    expect(smtp.mailsTo(acct.ownerEmail).filter((m) => m.text.includes(`Dedicated number renewal ${number}`))).toHaveLength(1);
    expect(mail.attachments[0].contentType).toBe('application/pdf');
    expect((await t.api.get('/v1/dedicated-numbers', { auth: acct.auth })).body.results[1]).toMatchObject({ number, renewal_state: 'active' });
  });

  it('on a decline: retries, emails the owner, and releases the number after the grace period; it then stops being a sender', async () => {
    const { acct, number, expiresAt } = await owner();
    await cardDeclines(acct.accountId, true);
    now = expiresAt.getTime() - 6 * DAY;
    expect(await run()).toMatchObject({ failed: 1 });
    expect(await subscription(number)).toMatchObject({ renewal_state: 'retrying', renewal_attempts: 1, released_at: null });
    const warned = await smtp.mailTo(acct.ownerEmail, new RegExp(`^Renewal of ${number} failed$`));
    expect(warned.text).toContain('the card ending in 4242 was declined');
    expect((await t.api.get('/v1/dedicated-numbers', { auth: acct.auth })).body.results[1]).toMatchObject({ number, renewal_state: 'retrying' });
    // Not again until the retry is due.
    expect(await run()).toMatchObject({ failed: 0 });
    now += DAY + 1000;
    expect(await run()).toMatchObject({ failed: 1 });
    expect(await subscription(number)).toMatchObject({ renewal_attempts: 2 });
    // Still a sender through expiry and the grace period...
    now = expiresAt.getTime() + 2 * DAY;
    await run();
    expect((await t.api.get('/v1/senders', { auth: acct.auth })).body.results.map((s: { sender: string }) => s.sender)).toContain(number);
    // ...then released.
    now = expiresAt.getTime() + 3 * DAY + 1000;
    expect(await run()).toMatchObject({ released: 1 });
    expect(await subscription(number)).toMatchObject({ renewal_state: 'released', released_at: expect.any(Date) });
    expect(await db.query(`SELECT status, account_id FROM dedicated_numbers WHERE number = $1`, [number])).toEqual([{ status: 'available', account_id: null }]);
    expect((await t.api.get('/v1/senders', { auth: acct.auth })).body.results.map((s: { sender: string }) => s.sender)).not.toContain(number);
    expect((await t.api.get('/v1/dedicated-numbers', { auth: acct.auth })).body.results.map((r: { number: string }) => r.number)).not.toContain(number);
    await smtp.mailTo(acct.ownerEmail, new RegExp(`^Dedicated number ${number} released$`));
    expect((await renewals(number)).map((r: { state: string }) => r.state)).toEqual(['declined', 'declined', 'declined']);
  });

  it('a retry that succeeds renews the number', async () => {
    const { acct, number, expiresAt } = await owner();
    await cardDeclines(acct.accountId, true);
    now = expiresAt.getTime() - 6 * DAY;
    expect(await run()).toMatchObject({ failed: 1 });
    await cardDeclines(acct.accountId, false);
    now += DAY + 1000;
    expect(await run()).toMatchObject({ renewed: 1 });
    expect(await subscription(number)).toMatchObject({ renewal_state: 'active', renewal_attempts: 0 });
    expect((await renewals(number)).map((r: { state: string }) => r.state)).toEqual(['declined', 'fulfilled']);
  });

  it('a renewal held for review waits for the operator: no second attempt meanwhile; released, it extends the number', async () => {
    const { acct, number, expiresAt } = await owner();
    await db.query(`UPDATE payment_cards SET payment_method_id = regexp_replace(payment_method_id, '_succeeds$', '_held') WHERE account_id = $1`, [acct.accountId]);
    now = expiresAt.getTime() - 6 * DAY;
    expect(await run()).toMatchObject({ pending: 1 });
    now += DAY + 1000;
    expect(await run()).toMatchObject({ renewed: 0, failed: 0, pending: 0 });
    const [held] = await db.query(`SELECT id::int, state FROM purchases WHERE kind = 'renewal' AND number = $1`, [number]);
    expect(held.state).toBe('held');
    expect((await runCli('purchase:release', '--id', String(held.id))).json?.state).toBe('fulfilled');
    const sub = await subscription(number);
    expect([sub.renewal_state, new Date(sub.expires_at).getUTCFullYear()]).toEqual(['active', expiresAt.getUTCFullYear() + 1]);
  });

  it('keeps a number past its grace period while a retry is held for review, and the released payment renews it', async () => {
    const { acct, number, expiresAt } = await owner();
    await cardDeclines(acct.accountId, true);
    now = expiresAt.getTime() - 6 * DAY;
    expect(await run()).toMatchObject({ failed: 1 });
    // The retry is held for review (the card now goes to review instead of declining).
    await db.query(`UPDATE payment_cards SET payment_method_id = regexp_replace(payment_method_id, '_declined$', '_held') WHERE account_id = $1`, [acct.accountId]);
    now += DAY + 1000;
    expect(await run()).toMatchObject({ pending: 1 });
    // Past the grace period: not released while that payment may still go through.
    now = expiresAt.getTime() + 3 * DAY + 1000;
    expect(await run()).toMatchObject({ released: 0 });
    expect(await subscription(number)).toMatchObject({ released_at: null });
    const [held] = await db.query(`SELECT id::int FROM purchases WHERE kind = 'renewal' AND number = $1 AND state = 'held'`, [number]);
    expect((await runCli('purchase:release', '--id', String(held.id))).json?.state).toBe('fulfilled');
    expect(await subscription(number)).toMatchObject({ renewal_state: 'active', released_at: null });
  });
});
