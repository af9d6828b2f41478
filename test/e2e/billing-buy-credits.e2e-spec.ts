import { DataSource } from 'typeorm';
import { AccountsService } from '../../src/accounts/accounts.service';
import { LiveRequestsService } from '../../src/live-requests/live-requests.service';
import { CardsService } from '../../src/payments/cards.service';
import { accountWithOwner, PASSWORD, signedIn, userWith } from '../support/dashboard';
import { PageClient, textOf } from '../support/page-client';
import { addCard, cardIdsOf, purchaseKeyOf as formKeyOf } from '../support/purchases';
import { SmtpPeer } from '../support/smtp-peer';
import { StripePeer } from '../support/stripe-peer';
import { startTestApp, TestApp } from '../support/test-app';

const SECRET = 'sk_test_localpeer';
let ip = 0;
const nextIp = () => `10.30.2.${++ip}`;

describe('Buying credits on the Billing page (Stripe SDK against a local peer)', () => {
  let t: TestApp;
  let db: DataSource;
  const peer = new StripePeer();
  const smtp = new SmtpPeer();

  beforeAll(async () => {
    await peer.start();
    await smtp.start();
    t = await startTestApp({ stripeSecretKey: SECRET, stripeApiBase: peer.url, purchaseJobsIntervalMs: 0, smtpUrl: smtp.url });
    db = t.app.get(DataSource);
  });
  afterAll(async () => {
    await t.close();
    await peer.stop();
    await smtp.stop();
  });

  async function owner(paymentMethodId = 'pm_card_visa') {
    const acct = await accountWithOwner(t.app, { name: 'Harbour Bakery' });
    const account = await t.app.get(AccountsService).get(acct.accountId);
    await t.app.get(CardsService).add(account, { paymentMethodId });
    const browser = await signedIn(t.app, acct.ownerEmail, PASSWORD, nextIp());
    const page = await browser.get('/billing');
    return { acct, browser, page };
  }
  const purchasesOf = (accountId: number) =>
    db.query(`SELECT id::int, kind, state, credits, amount_inc_gst_cents, api_key_id, request_key LIKE 'page:%' AS on_page FROM purchases WHERE account_id = $1`, [accountId]);
  const ledgerOf = (accountId: number) => db.query(`SELECT kind, amount::int, reference FROM credit_ledger WHERE account_id = $1 ORDER BY id`, [accountId]);
  const chargesOf = (purchaseId: number) => peer.intents.filter((i) => i.idempotencyKey === `purchase-${purchaseId}-charge`);

  it('charges the chosen card by the API tiers plus GST, adds the credits, shows the result and the invoice at once, and audits it', async () => {
    const { acct, browser, page } = await owner();
    expect(textOf(page.html)).toContain('Purchases on this page are not bound by the daily limits of API keys');
    expect(textOf(page.html)).toContain('1,000 – 9,999 3.5¢');
    const res = await browser.post('/billing/credits', { purchase_key: formKeyOf(page.html), credits: '1,000', card_id: cardIdsOf(page.html)[0] });
    expect(res.status).toBe(303);
    const [purchase] = await purchasesOf(acct.accountId);
    expect(purchase).toEqual({ id: purchase.id, kind: 'credits', state: 'fulfilled', credits: 1000, amount_inc_gst_cents: 3850, api_key_id: null, on_page: true });
    expect(res.location).toBe(`/billing/purchases/${purchase.id}`);
    expect(chargesOf(purchase.id)).toHaveLength(1);
    expect(chargesOf(purchase.id)[0].params).toMatchObject({ amount: '3850', currency: 'aud' });
    expect(await ledgerOf(acct.accountId)).toEqual([{ kind: 'grant', amount: 100000, reference: `purchase:${purchase.id}` }]);

    const result = await browser.get(res.location!);
    expect(result.status).toBe(200);
    const text = textOf(result.html);
    expect(text).toContain('Credits bought');
    expect(text).toContain('1000 SMS credits');
    expect(text).toContain('Amount ex. GST $35.00 GST $3.50 Total (AUD inc. GST) $38.50');
    expect(text).toContain(`Tax invoice INV-${String(purchase.id).padStart(8, '0')}`);
    expect(text).toContain('Credit balance 1000.00');

    const invoiceMail = await smtp.mailTo(acct.ownerEmail, /Tax invoice INV-/);
    expect(invoiceMail.text).toContain(`Bought on the Billing page by ${acct.ownerEmail}.`);
    const billing = textOf((await browser.get('/billing')).html);
    expect(billing).toContain(`INV-${String(purchase.id).padStart(8, '0')}`);
    const audit = textOf((await browser.get('/audit')).html);
    expect(audit).toContain('Bought credits on the Billing page');
    expect(audit).toContain('1000 credits, A$38.50 inc. GST, visa ending in 4242');
  });

  it('charges once when the same form is posted twice at once (a double click) and again later (a retried form)', async () => {
    const { acct, browser, page } = await owner();
    const fields = { purchase_key: formKeyOf(page.html), credits: '500', card_id: cardIdsOf(page.html)[0] };
    const both = await Promise.all([browser.post('/billing/credits', fields), browser.post('/billing/credits', fields)]);
    const again = await browser.post('/billing/credits', fields);
    const purchases = await purchasesOf(acct.accountId);
    expect(purchases).toHaveLength(1);
    expect([...both, again].map((r) => [r.status, r.location])).toEqual(Array(3).fill([303, `/billing/purchases/${purchases[0].id}`]));
    expect(chargesOf(purchases[0].id)).toHaveLength(1);
    expect(peer.requests.filter((r) => r.method === 'POST' && r.path === '/v1/payment_intents' && r.idempotencyKey === `purchase-${purchases[0].id}-charge`)).toHaveLength(1);
    expect(await ledgerOf(acct.accountId)).toEqual([{ kind: 'grant', amount: 50000, reference: `purchase:${purchases[0].id}` }]);

    // A fresh page is a fresh form: a second purchase.
    const next = await browser.get('/billing');
    expect((await browser.post('/billing/credits', { ...fields, purchase_key: formKeyOf(next.html) })).status).toBe(303);
    expect(await purchasesOf(acct.accountId)).toHaveLength(2);
  });

  it('shows a declined card as declined (402), adds nothing, and the retried form does not charge again', async () => {
    const { acct, browser, page } = await owner('pm_card_chargeDeclined');
    const fields = { purchase_key: formKeyOf(page.html), credits: '500', card_id: cardIdsOf(page.html)[0] };
    const res = await browser.post('/billing/credits', fields);
    const result = await browser.get(res.location!);
    expect(result.status).toBe(402);
    expect(textOf(result.html)).toContain('Payment declined. Nothing was charged and no credits were added.');
    await browser.post('/billing/credits', fields);
    const [purchase] = await purchasesOf(acct.accountId);
    expect(purchase.state).toBe('declined');
    expect(chargesOf(purchase.id)).toHaveLength(1);
    expect(await ledgerOf(acct.accountId)).toEqual([]);
  });

  it.each([
    [{ credits: '499' }, 'The minimum purchase is 500 credits'],
    [{ credits: '10000001' }, 'The maximum purchase is 10000000 credits'],
    [{ credits: '12.5' }, 'Enter a whole number of credits, such as 5000'],
    [{ credits: '' }, 'Enter how many credits to buy'],
    [{ card_id: '' }, 'Choose a card'],
  ])('re-renders the page with %j: %s, buying nothing', async (fields, message) => {
    const { acct, browser, page } = await owner();
    const res = await browser.post('/billing/credits', { purchase_key: formKeyOf(page.html), credits: '500', card_id: cardIdsOf(page.html)[0], ...fields });
    expect(res.status).toBe(400);
    expect(textOf(res.html)).toContain(message);
    expect(await purchasesOf(acct.accountId)).toEqual([]);
  });

  it('refuses a card of another account, and a user without manage_billing, on the server', async () => {
    const { acct, browser, page } = await owner();
    const other = await owner();
    const otherCard = cardIdsOf(other.page.html)[0];
    const foreign = await browser.post('/billing/credits', { purchase_key: formKeyOf(page.html), credits: '500', card_id: otherCard });
    expect(foreign.status).toBe(404);
    const keysUser = await userWith(t.app, acct.accountId, ['manage_api_keys']);
    const outsider = await signedIn(t.app, keysUser, PASSWORD, nextIp());
    await outsider.get('/overview');
    const refused = await outsider.post('/billing/credits', { purchase_key: formKeyOf(page.html), credits: '500', card_id: cardIdsOf(page.html)[0] });
    expect(refused.status).toBe(403);
    expect((await outsider.get('/billing/purchases/1')).status).toBe(403);
    expect(await purchasesOf(acct.accountId)).toEqual([]);
    // Another account's purchase page is not found.
    const bought = await other.browser.post('/billing/credits', { purchase_key: formKeyOf(other.page.html), credits: '500', card_id: otherCard });
    expect((await browser.get(bought.location!)).status).toBe(404);
  });

  it('refuses a form without its CSRF token', async () => {
    const { acct, browser, page } = await owner();
    const res = await browser.post('/billing/credits', { _csrf: '', purchase_key: formKeyOf(page.html), credits: '500', card_id: cardIdsOf(page.html)[0] });
    expect(res.status).toBe(403);
    expect(await purchasesOf(acct.accountId)).toEqual([]);
  });
});

describe('Buying credits on the Billing page (simulated provider)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ purchaseJobsIntervalMs: 0 });
  });
  afterAll(() => t.close());

  it('works with a test card, and says so when there is no card yet', async () => {
    const acct = await accountWithOwner(t.app);
    const browser: PageClient = await signedIn(t.app, acct.ownerEmail, PASSWORD, '10.30.3.1');
    expect(textOf((await browser.get('/billing')).html)).toContain('Add a card below to buy credits.');
    await addCard(t.app, acct.accountId);
    const page = await browser.get('/billing');
    expect(textOf(page.html)).not.toContain('This is a test account');
    const res = await browser.post('/billing/credits', { purchase_key: formKeyOf(page.html), credits: '2000', card_id: cardIdsOf(page.html)[0] });
    const result = await browser.get(res.location!);
    expect(textOf(result.html)).toContain('Credit balance 2000.00');
    expect(textOf(result.html)).not.toContain('This is a test account');
  });

  it('tells a test account before it buys that credits are a real purchase kept for going live, which its sends never use; going live keeps them', async () => {
    const acct = await accountWithOwner(t.app, { test: true, senders: ['Sandbox'], name: 'Harbour Bakery' });
    await addCard(t.app, acct.accountId);
    const browser = await signedIn(t.app, acct.ownerEmail, PASSWORD, '10.30.3.2');
    const page = await browser.get('/billing');
    const before = textOf(page.html);
    expect(before).toContain(
      'This is a test account: its messages cost nothing and never use credits. Credits bought here are a real purchase, charged to your card with a tax invoice, and stay on the balance for when the account goes live (going live keeps this account, its API keys and its balance).',
    );
    expect(before).toContain("A test account's messages never lower the balance, so auto-recharge and the low-balance warning act only once it is live.");
    // The notice comes before the form that buys.
    expect(page.html.indexOf('data-testid="test-account-credits"')).toBeLessThan(page.html.indexOf('action="/billing/credits"'));

    const res = await browser.post('/billing/credits', { purchase_key: formKeyOf(page.html), credits: '500', card_id: cardIdsOf(page.html)[0] });
    const result = textOf((await browser.get(res.location!)).html);
    expect(result).toContain('The credits are on your balance now. This is a test account: its messages do not use them, and they stay on the balance for when it goes live.');
    expect(result).toContain('Credit balance 500.00');

    // A test send uses none of them.
    const sent = await t.api.post('/v1/messages', { auth: acct.auth, body: { messages: [{ to: '0412345678', message: 'Fresh bread at 7', sender: 'Sandbox' }] } });
    expect([sent.status, sent.body.total_cost]).toEqual([200, 1]);
    expect((await t.api.get('/v1/account', { auth: acct.auth })).body).toMatchObject({ test_account: true, credit_balance: 500 });

    // Going live keeps the account, its key and the credits bought.
    await browser.get('/go-live');
    const asked = await browser.post('/go-live', {
      business_name: 'Harbour Bakery Pty Ltd',
      abn: '51 824 753 556',
      website: '',
      intended_use: 'Order-ready texts to customers who ordered online',
    });
    expect(asked.status).toBe(303);
    const [request] = await t.app.get(DataSource).query(`SELECT id::int FROM live_requests WHERE account_id = $1`, [acct.accountId]);
    await t.app.get(LiveRequestsService).approve(request.id, 0);
    expect((await t.api.get('/v1/account', { auth: acct.auth })).body).toMatchObject({ test_account: false, credit_balance: 500 });
    expect(textOf((await browser.get('/billing')).html)).not.toContain('This is a test account');
  });
});
