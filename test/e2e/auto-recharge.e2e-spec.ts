import { DataSource } from 'typeorm';
import { AccountsService } from '../../src/accounts/accounts.service';
import { CreditsService } from '../../src/billing/credits.service';
import { CardsService } from '../../src/payments/cards.service';
import { AccountPurchasesService } from '../../src/purchases/account-purchases.service';
import { autoRechargeActor, CrossingHandler } from '../../src/recharge/crossing-handler.service';
import { accountWithOwner, DashboardAccount, PASSWORD, signedIn, userWith } from '../support/dashboard';
import { PageClient, textOf } from '../support/page-client';
import { SmtpPeer } from '../support/smtp-peer';
import { StripePeer } from '../support/stripe-peer';
import { startTestApp, TestApp } from '../support/test-app';
import { until } from '../support/wait';

const SECRET = 'sk_test_localpeer';
let ip = 0;
const nextIp = () => `10.30.4.${++ip}`;

describe('Auto-recharge and the low-balance warning', () => {
  let t: TestApp;
  let db: DataSource;
  const peer = new StripePeer();
  const smtp = new SmtpPeer();

  beforeAll(async () => {
    await peer.start();
    await smtp.start();
    // Many sends at once from one account: the in-flight limit (5) would refuse most of them.
    t = await startTestApp({
      stripeSecretKey: SECRET,
      stripeApiBase: peer.url,
      purchaseJobsIntervalMs: 0,
      smtpUrl: smtp.url,
      dashboardUrl: 'https://dash.example.com.au',
      inflightLimit: 50,
    });
    db = t.app.get(DataSource);
  });
  afterAll(async () => {
    await t.close();
    await peer.stop();
    await smtp.stop();
  });

  async function owner(credits: number, paymentMethodId = 'pm_card_visa'): Promise<{ acct: DashboardAccount; browser: PageClient; cardId: string }> {
    const acct = await accountWithOwner(t.app, { credits, senders: ['Harbour'], name: 'Harbour Bakery' });
    const card = await t.app.get(CardsService).add(await t.app.get(AccountsService).get(acct.accountId), { paymentMethodId });
    const browser = await signedIn(t.app, acct.ownerEmail, PASSWORD, nextIp());
    await browser.get('/billing');
    return { acct, browser, cardId: String(card.id) };
  }
  const send = (acct: DashboardAccount, n = 1) =>
    t.api.post('/v1/messages', { auth: acct.auth, body: { messages: Array.from({ length: n }, () => ({ to: '0412345678', message: 'Fresh bread at 7', sender: 'Harbour' })) } });
  const balanceOf = async (accountId: number) => (await db.query(`SELECT credit_balance::int AS b FROM accounts WHERE id = $1`, [accountId]))[0].b as number;
  const rechargesOf = (accountId: number) =>
    db.query(`SELECT id::int, state, credits, request_key FROM purchases WHERE account_id = $1 AND request_key LIKE 'auto-recharge:%' ORDER BY id`, [accountId]);
  const crossingsOf = (accountId: number) => db.query(`SELECT kind, threshold::int, outcome FROM balance_crossings WHERE account_id = $1 ORDER BY id`, [accountId]);
  const chargesOf = (purchaseId: number) => peer.intents.filter((i) => i.idempotencyKey === `purchase-${purchaseId}-charge`);

  it('buys once when many concurrent sends take the balance below the threshold: one crossing, one purchase, one charge', async () => {
    const { acct, browser, cardId } = await owner(20);
    const saved = await browser.post('/billing/auto-recharge', { enabled: 'on', below_credits: '10', buy_credits: '500', card_id: cardId, max_per_day: '3' });
    expect([saved.status, saved.location]).toEqual([303, '/billing?notice=auto_recharge_on']);
    expect(await db.query(`SELECT recharge_below::int FROM accounts WHERE id = $1`, [acct.accountId])).toEqual([{ recharge_below: 1000 }]);

    const answers = await Promise.all(Array.from({ length: 12 }, () => send(acct)));
    expect(answers.map((a) => a.status)).toEqual(Array(12).fill(200));
    await until(async () => (await balanceOf(acct.accountId)) === (20 - 12 + 500) * 100, 'the recharge to land');
    const [recharge, ...more] = await rechargesOf(acct.accountId);
    expect(more).toEqual([]);
    expect(recharge).toMatchObject({ state: 'fulfilled', credits: 500 });
    expect(chargesOf(recharge.id)).toHaveLength(1);
    expect(await crossingsOf(acct.accountId)).toEqual([{ kind: 'recharge', threshold: 1000, outcome: 'bought 500 credits' }]);

    // Staying above the threshold does nothing more; the invoice says how it was bought.
    await send(acct, 5);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await rechargesOf(acct.accountId)).toHaveLength(1);
    const mail = await smtp.mailTo(acct.ownerEmail, /Tax invoice INV-/);
    expect(mail.text).toContain('Bought by auto-recharge (the balance fell below its threshold).');
    const page = textOf((await browser.get('/billing')).html);
    expect(page).toContain('Auto-recharge 9.00 bought 500 credits');
    const audit = textOf((await browser.get('/audit')).html);
    expect(audit).toContain('Changed auto-recharge');
    expect(audit).toContain('on: below 10 credits buy 500 with visa ending in 4242, at most 3 a day');
    expect(audit).toContain('Auto-recharge bought credits');
  });

  it('switches itself off and emails the owner when the charge is declined', async () => {
    const { acct, browser, cardId } = await owner(12, 'pm_card_chargeDeclined');
    await browser.post('/billing/auto-recharge', { enabled: 'on', below_credits: '10', buy_credits: '500', card_id: cardId, max_per_day: '3' });
    await Promise.all(Array.from({ length: 4 }, () => send(acct)));
    const mail = await smtp.mailTo(acct.ownerEmail, /Auto-recharge stopped/);
    expect(mail.text).toContain('tried to buy 500 credits with the card ending in 0002: the payment was declined');
    expect(await rechargesOf(acct.accountId)).toMatchObject([{ state: 'declined' }]);
    expect(await db.query(`SELECT recharge_below, (SELECT enabled FROM auto_recharges WHERE account_id = $1) FROM accounts WHERE id = $1`, [acct.accountId])).toEqual([
      { recharge_below: null, enabled: false },
    ]);
    expect(textOf((await browser.get('/billing')).html)).toContain('Auto-recharge switched itself off: the card ending in 0002 was declined.');
    expect(await balanceOf(acct.accountId)).toBe(800);
  });

  it('emails one low-balance warning per crossing, and again only after the balance rose above and fell again', async () => {
    const { acct, browser } = await owner(10);
    const saved = await browser.post('/billing/low-balance-warning', { warn_below: '5' });
    expect(saved.location).toBe('/billing?notice=warning_saved');
    await Promise.all(Array.from({ length: 7 }, () => send(acct)));
    const warning = await smtp.mailTo(acct.ownerEmail, /Low balance/);
    expect(warning.subject).toBe('Low balance: 4.00 credits left on Harbour Bakery');
    expect(warning.text).toContain('fell below 5 credits');
    expect(warning.text).toContain('https://dash.example.com.au/billing');
    await send(acct);
    await t.app.get(CreditsService).grant(acct.accountId, 1000, 'operator grant', 'test');
    await send(acct, 9);
    await until(() => smtp.mailsTo(acct.ownerEmail).filter((m) => /Low balance/.test(m.subject)).length === 2, 'a second warning');
    expect(await crossingsOf(acct.accountId)).toEqual([
      { kind: 'warning', threshold: 500, outcome: 'mailed' },
      { kind: 'warning', threshold: 500, outcome: 'mailed' },
    ]);
    expect((await browser.post('/billing/low-balance-warning', { warn_below: '' })).location).toBe('/billing?notice=warning_off');
    expect(await db.query(`SELECT warn_below FROM accounts WHERE id = $1`, [acct.accountId])).toEqual([{ warn_below: null }]);
  });

  it('charges once when two workers handle one crossing, stops at the daily count, and the sweep handles a crossing whose job was lost', async () => {
    const { acct, browser, cardId } = await owner(600);
    await browser.post('/billing/auto-recharge', { enabled: 'on', below_credits: '100', buy_credits: '500', card_id: cardId, max_per_day: '1' });
    // Crossings recorded with no job (as if Redis lost it): the sweep takes them once their grace has passed.
    const lost = async () =>
      (
        await db.query(
          `INSERT INTO balance_crossings (account_id, kind, threshold, balance_after, crossed_at) VALUES ($1, 'recharge', 10000, 5000, now() - interval '1 minute') RETURNING id::int`,
          [acct.accountId],
        )
      )[0].id as number;
    // Two workers handling the same crossing at once: one purchase, one charge.
    const id = await lost();
    await Promise.all([t.app.get(CrossingHandler).handle(id), t.app.get(CrossingHandler).handle(id)]);
    const recharges = await rechargesOf(acct.accountId);
    expect(recharges).toMatchObject([{ state: 'fulfilled', request_key: `auto-recharge:${id}` }]);
    expect(chargesOf(recharges[0].id)).toHaveLength(1);
    await lost();
    await t.app.get(CrossingHandler).sweep();
    expect(await rechargesOf(acct.accountId)).toHaveLength(1);
    expect((await crossingsOf(acct.accountId)).map((c: { outcome: string }) => c.outcome)).toEqual(['bought 500 credits', 'daily limit reached']);
  });

  it("never counts a crossing's own purchase against its day: a handler that read 'not started' just before another handler's purchase committed still records the purchase", async () => {
    const { acct, browser, cardId } = await owner(600);
    await browser.post('/billing/auto-recharge', { enabled: 'on', below_credits: '100', buy_credits: '500', card_id: cardId, max_per_day: '1' });
    const [{ id }] = await db.query(
      `INSERT INTO balance_crossings (account_id, kind, threshold, balance_after, crossed_at) VALUES ($1, 'recharge', 10000, 5000, now()) RETURNING id::int`,
      [acct.accountId],
    );
    const handler = t.app.get(CrossingHandler);
    const purchases = t.app.get(AccountPurchasesService);
    // The first handler's purchase is made and committed; the second then runs on its stale "not started" read.
    await purchases.autoRecharge(autoRechargeActor(acct.accountId), id, 500, Number(cardId));
    jest.spyOn(purchases, 'existingAutoRecharge').mockResolvedValueOnce(false);
    await handler.handle(id);
    const recharges = await rechargesOf(acct.accountId);
    expect(recharges).toMatchObject([{ state: 'fulfilled', request_key: `auto-recharge:${id}` }]);
    expect(chargesOf(recharges[0].id)).toHaveLength(1);
    expect((await crossingsOf(acct.accountId)).map((c: { outcome: string }) => c.outcome)).toEqual(['bought 500 credits']);
  });

  it.each([
    [{ below_credits: '0' }, 'The threshold must be a whole number from 1 to 10000000'],
    [{ buy_credits: '100' }, 'The amount to buy must be a whole number from 500 to 10000000'],
    [{ max_per_day: '11' }, 'Recharges a day must be a whole number from 1 to 10'],
    [{ card_id: '' }, 'Choose a card'],
  ])('re-renders the Billing page with %j: %s, changing nothing', async (fields, message) => {
    const { acct, browser, cardId } = await owner(10);
    const res = await browser.post('/billing/auto-recharge', { enabled: 'on', below_credits: '10', buy_credits: '500', card_id: cardId, max_per_day: '3', ...fields });
    expect(res.status).toBe(400);
    expect(textOf(res.html)).toContain(message);
    expect(await db.query(`SELECT count(*)::int AS n FROM auto_recharges WHERE account_id = $1`, [acct.accountId])).toEqual([{ n: 0 }]);
  });

  it('is refused on the server to a user without manage_billing', async () => {
    const { acct, cardId } = await owner(10);
    const keysUser = await userWith(t.app, acct.accountId, ['manage_api_keys']);
    const browser = await signedIn(t.app, keysUser, PASSWORD, nextIp());
    await browser.get('/overview');
    expect((await browser.post('/billing/auto-recharge', { enabled: 'on', below_credits: '10', buy_credits: '500', card_id: cardId, max_per_day: '3' })).status).toBe(403);
    expect((await browser.post('/billing/low-balance-warning', { warn_below: '5' })).status).toBe(403);
  });
});
