import { DataSource } from 'typeorm';
import { AccountsService } from '../../src/accounts/accounts.service';
import { CardsService } from '../../src/payments/cards.service';
import { PurchaseReconciler } from '../../src/purchases/purchase-reconciler.service';
import { PurchaseSettler } from '../../src/purchases/purchase-settler.service';
import { accountWithOwner, DashboardAccount, PASSWORD, signedIn } from '../support/dashboard';
import { PageClient, textOf } from '../support/page-client';
import { buyCredits, cardIdsOf, enablePurchases, purchaseKeyOf as formKeyOf } from '../support/purchases';
import { StripePeer } from '../support/stripe-peer';
import { startTestApp, TestApp } from '../support/test-app';
import { until } from '../support/wait';

const SECRET = 'sk_test_localpeer';
let ip = 0;
const nextIp = () => `10.30.9.${++ip}`;

const cardIdOf = (html: string) => cardIdsOf(html)[0];

/**
 * The audit log says what a purchase made without an API key came to (bought, declined, held, refunded),
 * written in the transaction that records that outcome: never "bought" for a payment that was not taken.
 */
describe('The audit log of credit purchases (Stripe SDK against a local peer)', () => {
  let t: TestApp;
  let db: DataSource;
  const peer = new StripePeer();

  beforeAll(async () => {
    await peer.start();
    t = await startTestApp({ stripeSecretKey: SECRET, stripeApiBase: peer.url, purchaseJobsIntervalMs: 0, purchaseWaitMs: 300, inflightLimit: 50 });
    db = t.app.get(DataSource);
  });
  afterAll(async () => {
    await t.close();
    await peer.stop();
  });

  async function owner(paymentMethodId: string, credits = 0): Promise<{ acct: DashboardAccount; browser: PageClient; address: string; cardId: string }> {
    const acct = await accountWithOwner(t.app, { name: 'Harbour Bakery', credits, senders: ['Harbour'] });
    const card = await t.app.get(CardsService).add(await t.app.get(AccountsService).get(acct.accountId), { paymentMethodId });
    const address = nextIp();
    const browser = await signedIn(t.app, acct.ownerEmail, PASSWORD, address);
    return { acct, browser, address, cardId: String(card.id) };
  }
  async function buyOnPage(browser: PageClient, credits = '500') {
    const page = await browser.get('/billing');
    return browser.post('/billing/credits', { purchase_key: formKeyOf(page.html), credits, card_id: cardIdOf(page.html) });
  }
  const billingAudit = (accountId: number): Promise<Array<{ action: string; actor: string; detail: string; ip: string; by_user: boolean }>> =>
    db.query(
      `SELECT action, actor, detail, ip, user_id IS NOT NULL AS by_user FROM audit_log WHERE account_id = $1 AND action LIKE 'billing.%' AND action <> 'billing.auto_recharge_changed' ORDER BY id`,
      [accountId],
    );
  const purchasesOf = (accountId: number): Promise<Array<{ id: number; state: string }>> =>
    db.query(`SELECT id::int, state FROM purchases WHERE account_id = $1 ORDER BY id`, [accountId]);

  it('records a declined card on the Billing page as a declined attempt, never as a purchase', async () => {
    const { acct, browser, address } = await owner('pm_card_chargeDeclined');
    const res = await buyOnPage(browser);
    const result = await browser.get(res.location!);
    expect(result.status).toBe(402);
    expect(textOf(result.html)).toContain('Payment declined. Nothing was charged and no credits were added.');
    expect(await billingAudit(acct.accountId)).toEqual([
      { action: 'billing.credit_purchase_declined', actor: acct.ownerEmail, detail: '500 credits, A$22.00 inc. GST, visa ending in 0002', ip: address, by_user: true },
    ]);
    const audit = textOf((await browser.get('/audit')).html);
    expect(audit).toContain('Tried to buy credits: the payment was declined (nothing charged, no credits added)');
    expect(audit).not.toContain('Bought credits');
  });

  it('records a payment held for review as held; releasing it records the purchase, refunding it records the refund', async () => {
    const { acct, browser, address } = await owner('pm_card_riskLevelElevated');
    const held = await browser.get((await buyOnPage(browser)).location!);
    expect(textOf(held.html)).toContain('Payment held for review');
    const refused = await browser.get((await buyOnPage(browser, '1000')).location!);
    expect(textOf(refused.html)).toContain('Payment held for review');
    const [first, second] = await purchasesOf(acct.accountId);
    const whoFrom = { actor: acct.ownerEmail, ip: address, by_user: true };
    expect(await billingAudit(acct.accountId)).toEqual([
      { action: 'billing.credit_purchase_held', detail: '500 credits, A$22.00 inc. GST, visa ending in 9235', ...whoFrom },
      { action: 'billing.credit_purchase_held', detail: '1000 credits, A$38.50 inc. GST, visa ending in 9235', ...whoFrom },
    ]);
    expect(textOf((await browser.get('/audit')).html)).not.toContain('Bought credits');

    await t.app.get(PurchaseSettler).release(first.id);
    await t.app.get(PurchaseSettler).refund(second.id);
    // The decisions are the operator's, naming who bought; the buyer's own entries stay the holds.
    const byOperator = { actor: 'operator (CLI)', ip: '', by_user: false };
    expect((await billingAudit(acct.accountId)).slice(2)).toEqual([
      { action: 'billing.credit_purchase_released', detail: `500 credits, A$22.00 inc. GST, visa ending in 9235, bought by ${acct.ownerEmail}`, ...byOperator },
      { action: 'billing.credit_purchase_refunded', detail: `1000 credits, A$38.50 inc. GST, visa ending in 9235, bought by ${acct.ownerEmail}`, ...byOperator },
    ]);
    const audit = textOf((await browser.get('/audit')).html);
    expect(audit).toContain('Payment for credits held for review (no credits added yet)');
    expect(audit).toContain('Held payment for credits released after review (credits added)');
    expect(audit).toContain('Held payment for credits refunded after review (no credits added)');
    expect(audit).not.toContain('Bought credits');
  });

  it('writes the entry when the purchase settles, however late, naming who bought and from where', async () => {
    const { acct, browser, address } = await owner('pm_card_visa');
    peer.failCharges(1000);
    const down = await buyOnPage(browser);
    peer.failCharges(0);
    expect(down.status).toBe(503);
    const [purchase] = await purchasesOf(acct.accountId);
    expect(purchase.state).toBe('created');
    // Nothing happened yet: nothing in the audit log.
    expect(await billingAudit(acct.accountId)).toEqual([]);

    await t.app.get(PurchaseReconciler).run(0);
    expect(await purchasesOf(acct.accountId)).toEqual([{ id: purchase.id, state: 'fulfilled' }]);
    expect(await billingAudit(acct.accountId)).toEqual([
      { action: 'billing.credits_bought', actor: acct.ownerEmail, detail: '500 credits, A$22.00 inc. GST, visa ending in 4242', ip: address, by_user: true },
    ]);
  });

  it('writes no entry for an outcome whose transaction rolled back, and one when it is settled again', async () => {
    const { acct, browser } = await owner('pm_card_visa');
    // Fulfilling fails after the purchase was marked fulfilled in its transaction: the whole step rolls back.
    const trigger = `fail_grant_${acct.accountId}`;
    await db.query(`CREATE FUNCTION ${trigger}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'injected failure'; END $$`);
    await db.query(`CREATE TRIGGER ${trigger} BEFORE INSERT ON credit_ledger FOR EACH ROW WHEN (NEW.account_id = ${acct.accountId}) EXECUTE FUNCTION ${trigger}()`);
    let failed;
    try {
      failed = await buyOnPage(browser);
    } finally {
      await db.query(`DROP TRIGGER ${trigger} ON credit_ledger`);
      await db.query(`DROP FUNCTION ${trigger}()`);
    }
    expect(failed.status).toBe(500);
    const [purchase] = await purchasesOf(acct.accountId);
    expect(purchase.state).toBe('charged');
    expect(await billingAudit(acct.accountId)).toEqual([]);

    await t.app.get(PurchaseReconciler).run(0);
    await t.app.get(PurchaseReconciler).run(0);
    expect(await purchasesOf(acct.accountId)).toEqual([{ id: purchase.id, state: 'fulfilled' }]);
    expect((await billingAudit(acct.accountId)).map((e) => e.action)).toEqual(['billing.credits_bought']);
  });

  it('records a declined auto-recharge as declined, not as credits bought', async () => {
    const { acct, browser, cardId } = await owner('pm_card_chargeDeclined', 12);
    await browser.post('/billing/auto-recharge', { enabled: 'on', below_credits: '10', buy_credits: '500', card_id: cardId, max_per_day: '3' });
    const sent = await t.api.post('/v1/messages', {
      auth: acct.auth,
      body: { messages: Array.from({ length: 4 }, () => ({ to: '0412345678', message: 'Hi', sender: 'Harbour' })) },
    });
    expect(sent.status).toBe(200);
    await until(async () => (await billingAudit(acct.accountId)).length === 2, 'auto-recharge to stop itself');
    expect(await billingAudit(acct.accountId)).toEqual([
      { action: 'billing.credit_purchase_declined', actor: 'auto-recharge', detail: '500 credits, A$22.00 inc. GST, visa ending in 0002', ip: '', by_user: false },
      { action: 'billing.auto_recharge_stopped', actor: 'auto-recharge', detail: 'the card ending in 0002 was declined', ip: '', by_user: false },
    ]);
    expect(textOf((await browser.get('/audit')).html)).not.toContain('Auto-recharge bought credits');
  });

  it('writes no billing entry for a purchase by API key, declined or not (the key is named on its invoice)', async () => {
    const { acct } = await owner('pm_card_chargeDeclined');
    await enablePurchases(t.app, acct);
    const declined = await buyCredits(t, acct, { credits: 500 });
    expect([declined.status, declined.body]).toEqual([402, { error: 'Payment declined' }]);
    expect(await billingAudit(acct.accountId)).toEqual([]);
  });
});
