import { DataSource } from 'typeorm';
import { AccountsService } from '../../src/accounts/accounts.service';
import { CreditsService } from '../../src/billing/credits.service';
import { CardsService } from '../../src/payments/cards.service';
import { CrossingHandler } from '../../src/recharge/crossing-handler.service';
import { accountWithOwner, DashboardAccount, PASSWORD, signedIn } from '../support/dashboard';
import { StripePeer } from '../support/stripe-peer';
import { startTestApp, TestApp } from '../support/test-app';
import { until } from '../support/wait';

const SECRET = 'sk_test_localpeer';
let ip = 0;
const nextIp = () => `10.30.8.${++ip}`;

/** Auto-recharge when the payment provider is down, and its daily count over real crossings. */
describe('Auto-recharge: provider outages and the daily count', () => {
  let t: TestApp;
  let db: DataSource;
  const peer = new StripePeer();

  beforeAll(async () => {
    await peer.start();
    // The reconciler is off (purchaseJobsIntervalMs 0): only the crossing's own retry may settle a purchase here.
    t = await startTestApp({ stripeSecretKey: SECRET, stripeApiBase: peer.url, purchaseJobsIntervalMs: 0, purchaseWaitMs: 300, inflightLimit: 50 });
    db = t.app.get(DataSource);
  });
  afterAll(async () => {
    await t.close();
    await peer.stop();
  });

  async function recharging(credits: number, maxPerDay: number): Promise<DashboardAccount> {
    const acct = await accountWithOwner(t.app, { credits, senders: ['Harbour'], name: 'Harbour Bakery' });
    const card = await t.app.get(CardsService).add(await t.app.get(AccountsService).get(acct.accountId), { paymentMethodId: 'pm_card_visa' });
    const browser = await signedIn(t.app, acct.ownerEmail, PASSWORD, nextIp());
    await browser.get('/billing');
    const saved = await browser.post('/billing/auto-recharge', {
      enabled: 'on',
      below_credits: '10',
      buy_credits: '500',
      card_id: String(card.id),
      max_per_day: String(maxPerDay),
    });
    expect(saved.location).toBe('/billing?notice=auto_recharge_on');
    return acct;
  }
  const send = async (acct: DashboardAccount, n: number) => {
    const res = await t.api.post('/v1/messages', {
      auth: acct.auth,
      body: { messages: Array.from({ length: n }, () => ({ to: '0412345678', message: 'Fresh bread at 7', sender: 'Harbour' })) },
    });
    expect(res.status).toBe(200);
  };
  const balanceOf = async (accountId: number) => (await db.query(`SELECT credit_balance::int AS b FROM accounts WHERE id = $1`, [accountId]))[0].b as number;
  const rechargesOf = (accountId: number): Promise<Array<{ id: number; state: string; request_key: string }>> =>
    db.query(`SELECT id::int, state, request_key FROM purchases WHERE account_id = $1 AND request_key LIKE 'auto-recharge:%' ORDER BY id`, [accountId]);
  /** outcome null: not handled yet. */
  const crossingsOf = (accountId: number): Promise<Array<{ id: number; outcome: string | null }>> =>
    db.query(`SELECT id::int, CASE WHEN handled_at IS NULL THEN NULL ELSE outcome END AS outcome FROM balance_crossings WHERE account_id = $1 AND kind = 'recharge' ORDER BY id`, [
      accountId,
    ]);
  const chargeKey = (purchaseId: number) => `purchase-${purchaseId}-charge`;
  const chargesOf = (purchaseId: number) => peer.intents.filter((i) => i.idempotencyKey === chargeKey(purchaseId));
  const intentRequestsOf = (purchaseId: number) => peer.requests.filter((r) => r.path === '/v1/payment_intents' && r.idempotencyKey === chargeKey(purchaseId));

  /** Waits for the crossing's job to have tried the charge and given up (the purchase exists, its charge request answered or dropped). */
  async function firstAttemptFailed(acct: DashboardAccount, requests: number): Promise<{ purchaseId: number; crossingId: number }> {
    await until(async () => (await rechargesOf(acct.accountId)).length === 1, 'the recharge purchase');
    const [purchase] = await rechargesOf(acct.accountId);
    await until(() => intentRequestsOf(purchase.id).length >= requests, 'the charge attempt');
    await new Promise((resolve) => setTimeout(resolve, 500));
    const [crossing] = await crossingsOf(acct.accountId);
    return { purchaseId: purchase.id, crossingId: crossing.id };
  }

  it('leaves the crossing to be retried when the charge was made but its answer lost, and the retry settles that purchase without charging again', async () => {
    const acct = await recharging(20, 3);
    peer.dropAfterCharge(2); // charged at Stripe, then the connection drops (twice: the SDK's own retry too)
    await send(acct, 11);
    const { purchaseId, crossingId } = await firstAttemptFailed(acct, 2);
    expect(chargesOf(purchaseId)).toHaveLength(1);
    expect(await crossingsOf(acct.accountId)).toEqual([{ id: crossingId, outcome: null }]);
    expect(await balanceOf(acct.accountId)).toBe(900); // nothing credited while it is unknown whether it charged
    expect((await rechargesOf(acct.accountId))[0].state).not.toBe('fulfilled');

    // The periodic sweep takes the crossing once its grace has passed (made so here).
    await db.query(`UPDATE balance_crossings SET crossed_at = crossed_at - interval '1 minute' WHERE id = $1`, [crossingId]);
    await t.app.get(CrossingHandler).sweep();
    expect(await rechargesOf(acct.accountId)).toMatchObject([{ id: purchaseId, state: 'fulfilled' }]);
    expect(chargesOf(purchaseId)).toHaveLength(1);
    expect(intentRequestsOf(purchaseId).length).toBeGreaterThanOrEqual(3); // the retry asked again, with the same key
    expect(await crossingsOf(acct.accountId)).toEqual([{ id: crossingId, outcome: 'bought 500 credits' }]);
    expect(await balanceOf(acct.accountId)).toBe(900 + 50_000);
    await t.app.get(CrossingHandler).handle(crossingId);
    expect(await balanceOf(acct.accountId)).toBe(900 + 50_000);
  });

  it('leaves the crossing to be retried while the provider refuses every charge, then two retries at once charge once', async () => {
    const acct = await recharging(20, 3);
    peer.failCharges(1000);
    await send(acct, 11);
    const { purchaseId, crossingId } = await firstAttemptFailed(acct, 1);
    expect(chargesOf(purchaseId)).toHaveLength(0);
    expect(await crossingsOf(acct.accountId)).toEqual([{ id: crossingId, outcome: null }]);
    expect(await balanceOf(acct.accountId)).toBe(900);
    // Still down: a retry fails again and changes nothing.
    await expect(t.app.get(CrossingHandler).handle(crossingId)).rejects.toThrow('Service temporarily unavailable, please retry');
    expect(await crossingsOf(acct.accountId)).toEqual([{ id: crossingId, outcome: null }]);

    peer.failCharges(0);
    await Promise.all([t.app.get(CrossingHandler).handle(crossingId), t.app.get(CrossingHandler).handle(crossingId)]);
    expect(await rechargesOf(acct.accountId)).toMatchObject([{ id: purchaseId, state: 'fulfilled' }]);
    expect(chargesOf(purchaseId)).toHaveLength(1);
    expect(await crossingsOf(acct.accountId)).toEqual([{ id: crossingId, outcome: 'bought 500 credits' }]);
    expect(await balanceOf(acct.accountId)).toBe(900 + 50_000);
  });

  it('buys at most K times in any 24 hours over real crossings, and again once the oldest purchase is a day old', async () => {
    const acct = await recharging(12, 2);
    const handled = (n: number) => until(async () => (await crossingsOf(acct.accountId)).filter((c) => c.outcome !== null).length === n, `crossing ${n} handled`);
    await send(acct, 3); // 12 → 9: crossing 1
    await handled(1);
    await send(acct, 500); // 509 → 9: crossing 2
    await handled(2);
    await send(acct, 500); // 509 → 9: crossing 3, over the count
    await handled(3);
    expect((await crossingsOf(acct.accountId)).map((c) => c.outcome)).toEqual(['bought 500 credits', 'bought 500 credits', 'daily limit reached']);
    expect(await rechargesOf(acct.accountId)).toHaveLength(2);
    expect(await balanceOf(acct.accountId)).toBe(900);

    // A day later for the first purchase: one more is allowed (the window is the last 24 hours, not the calendar day).
    const [first] = await rechargesOf(acct.accountId);
    await db.query(`UPDATE purchases SET created_at = created_at - interval '24 hours 1 minute' WHERE id = $1`, [first.id]);
    await t.app.get(CreditsService).grant(acct.accountId, 100_000, 'operator grant', 'test');
    await send(acct, 1000); // 1009 → 9: crossing 4
    await handled(4);
    expect((await crossingsOf(acct.accountId)).map((c) => c.outcome)).toEqual(['bought 500 credits', 'bought 500 credits', 'daily limit reached', 'bought 500 credits']);
    expect(await rechargesOf(acct.accountId)).toHaveLength(3);
    for (const r of await rechargesOf(acct.accountId)) expect(chargesOf(r.id)).toHaveLength(1);
  });
});
