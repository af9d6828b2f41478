import { DataSource } from 'typeorm';
import { AccountsService } from '../../src/accounts/accounts.service';
import { CardsService } from '../../src/payments/cards.service';
import { PurchaseReconciler } from '../../src/purchases/purchase-reconciler.service';
import { accountWithOwner, DashboardAccount } from '../support/dashboard';
import { buyCredits, enablePurchases, newKey } from '../support/purchases';
import { runCliWithEnv } from '../support/run-cli';
import { StripePeer } from '../support/stripe-peer';
import { startTestApp, TestApp } from '../support/test-app';

const SECRET = 'sk_test_localpeer';

/** The Stripe adapter: the real `stripe` SDK against a Stripe-compatible peer on loopback. */
describe('Stripe payment provider', () => {
  let t: TestApp;
  let db: DataSource;
  const peer = new StripePeer();

  beforeAll(async () => {
    await peer.start();
    t = await startTestApp({ stripeSecretKey: SECRET, stripeApiBase: peer.url, purchaseJobsIntervalMs: 0 });
    db = t.app.get(DataSource);
  });
  afterAll(async () => {
    await t.close();
    await peer.stop();
  });

  async function buyer(paymentMethodId: string): Promise<DashboardAccount> {
    const acct = await accountWithOwner(t.app);
    await enablePurchases(t.app, acct);
    const account = await t.app.get(AccountsService).get(acct.accountId);
    const card = await t.app.get(CardsService).add(account, { paymentMethodId });
    expect([card.provider, card.paymentMethodId]).toEqual(['stripe', paymentMethodId]);
    return acct;
  }
  const ledger = (accountId: number) => db.query(`SELECT kind, amount::int, reference FROM credit_ledger WHERE account_id = $1 ORDER BY id`, [accountId]);
  const intentsOf = (purchaseId: number) => peer.intents.filter((i) => i.idempotencyKey === `purchase-${purchaseId}-charge`);

  it('saves a card as a customer’s PaymentMethod and charges it off-session with our idempotency key', async () => {
    const acct = await buyer('pm_card_visa');
    expect(await db.query(`SELECT provider, brand, last4, exp_month, exp_year FROM payment_cards WHERE account_id = $1`, [acct.accountId])).toEqual([
      { provider: 'stripe', brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2034 },
    ]);
    const res = await buyCredits(t, acct, { credits: 1000 });
    expect([res.status, res.body.state, res.body.card_last4, res.body.amount_inc_gst]).toEqual([200, 'fulfilled', '4242', 38.5]);
    const [intent] = intentsOf(res.body.purchase_id);
    expect(intent.params).toMatchObject({
      amount: '3850',
      currency: 'aud',
      payment_method: 'pm_card_visa',
      off_session: 'true',
      confirm: 'true',
      'metadata[purchase_id]': String(res.body.purchase_id),
      'metadata[invoice_number]': res.body.invoice_number,
    });
    expect(intent.params.customer).toMatch(/^cus_/);
    expect(peer.requests.every((r) => r.authorization === `Bearer ${SECRET}`)).toBe(true);
    expect(await db.query(`SELECT provider, provider_payment_id FROM purchases WHERE id = $1`, [res.body.purchase_id])).toEqual([
      { provider: 'stripe', provider_payment_id: intent.id },
    ]);
    expect(await ledger(acct.accountId)).toEqual([{ kind: 'grant', amount: 100_000, reference: `purchase:${res.body.purchase_id}` }]);
  });

  it.each(['pm_card_chargeDeclined', 'pm_card_chargeDeclinedInsufficientFunds'])('answers 402 when Stripe declines (%s)', async (method) => {
    const acct = await buyer(method);
    const res = await buyCredits(t, acct, { credits: 1000 });
    expect([res.status, res.body]).toEqual([402, { error: 'Payment declined' }]);
    expect(await db.query(`SELECT state, provider_payment_id FROM purchases WHERE account_id = $1`, [acct.accountId])).toEqual([
      { state: 'declined', provider_payment_id: expect.stringMatching(/^pi_/) },
    ]);
    expect(await ledger(acct.accountId)).toEqual([]);
  });

  it('holds a payment Stripe placed in review (200, state held, nothing added)', async () => {
    const acct = await buyer('pm_card_riskLevelElevated');
    const res = await buyCredits(t, acct, { credits: 1000 });
    expect([res.status, res.body.state, res.body.credit_balance]).toEqual([200, 'held', 0]);
    expect(await ledger(acct.accountId)).toEqual([]);
  });

  it('a network error mid-charge leaves the purchase unsettled (503); the reconciler settles it from Stripe’s record: one charge, one fulfilment', async () => {
    const acct = await buyer('pm_card_visa');
    const key = newKey();
    peer.dropAfterCharge();
    const res = await buyCredits(t, acct, { credits: 1000 }, key);
    expect([res.status, res.body, res.headers['retry-after']]).toEqual([503, { error: 'Service temporarily unavailable, please retry' }, '5']);
    const [purchase] = await db.query(`SELECT id::int, state FROM purchases WHERE account_id = $1`, [acct.accountId]);
    expect(purchase.state).toBe('created');
    expect(intentsOf(purchase.id)).toHaveLength(1);
    expect(await ledger(acct.accountId)).toEqual([]);

    const report = await t.app.get(PurchaseReconciler).run(0);
    expect(report.still_unsettled).toBe(0);
    expect(await db.query(`SELECT state FROM purchases WHERE id = $1`, [purchase.id])).toEqual([{ state: 'fulfilled' }]);
    // Stripe saw the key three times (our call, the SDK's own retry of the closed connection, the reconciler) and charged once.
    expect(peer.requests.filter((r) => r.idempotencyKey === `purchase-${purchase.id}-charge`)).toHaveLength(3);
    expect(intentsOf(purchase.id)).toHaveLength(1);
    expect(await ledger(acct.accountId)).toEqual([{ kind: 'grant', amount: 100_000, reference: `purchase:${purchase.id}` }]);
    const retry = await buyCredits(t, acct, { credits: 1000 }, key);
    expect([retry.status, retry.body.state, retry.headers['idempotency-replay']]).toEqual([200, 'fulfilled', 'true']);
    expect(intentsOf(purchase.id)).toHaveLength(1);
  });

  it('refunds a held payment through Stripe (purchase:refund)', async () => {
    const acct = await buyer('pm_card_riskLevelElevated');
    const res = await buyCredits(t, acct, { credits: 500 });
    const refunded = await runCliWithEnv({ STRIPE_SECRET_KEY: SECRET, STRIPE_API_BASE: peer.url }, 'purchase:refund', '--id', String(res.body.purchase_id));
    expect([refunded.code, refunded.json?.state]).toEqual([0, 'refunded']);
    const [intent] = intentsOf(res.body.purchase_id);
    expect(peer.refunds).toContainEqual({ paymentIntent: intent.id, idempotencyKey: `purchase-${res.body.purchase_id}-refund` });
  });

  it('refuses card:add (test cards) when Stripe is configured', async () => {
    const acct = await accountWithOwner(t.app);
    const res = await runCliWithEnv({ STRIPE_SECRET_KEY: SECRET, STRIPE_API_BASE: peer.url }, 'card:add', '--account', String(acct.accountId), '--card', '4242424242424242');
    expect([res.code, res.stderr.trim()]).toEqual([1, 'error: Test cards are for the simulated payment provider only; a real payment provider is configured']);
  });
});
