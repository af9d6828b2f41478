import { DataSource } from 'typeorm';
import { accountWithOwner, signedIn, userWith } from '../support/dashboard';
import { textOf } from '../support/page-client';
import { addCard, buyCredits, enablePurchases } from '../support/purchases';
import { SmtpPeer } from '../support/smtp-peer';
import { startTestApp, TestApp } from '../support/test-app';

/** The Billing page without JavaScript: saved cards, the billing notification address, invoices; manage_billing only. */
describe('Billing page', () => {
  let t: TestApp;
  let db: DataSource;
  const smtp = new SmtpPeer();

  beforeAll(async () => {
    await smtp.start();
    t = await startTestApp({ smtpUrl: smtp.url, purchaseJobsIntervalMs: 0 });
    db = t.app.get(DataSource);
  });
  afterAll(async () => {
    await t.close();
    await smtp.stop();
  });

  it('adds a test card (never keeping its number), refuses other numbers on the form, and removes a card', async () => {
    const acct = await accountWithOwner(t.app);
    const owner = await signedIn(t.app, acct.ownerEmail);
    const empty = await owner.get('/billing');
    expect(empty.status).toBe(200);
    expect(textOf(empty.html)).toContain('No saved card yet.');
    const bad = await owner.post('/billing/cards', { card: '4111 1111 1111 1111' });
    expect(bad.status).toBe(400);
    expect(textOf(bad.html)).toContain('Not a test card of the simulated payment provider. Use one of: 4242424242424242 (succeeds)');
    expect(bad.html).not.toContain('4111 1111 1111 1111');
    const none = await owner.post('/billing/cards', { card: '' });
    expect([none.status, textOf(none.html).includes('Enter a test card number')]).toEqual([400, true]);

    const added = await owner.post('/billing/cards', { card: '4242 4242 4242 4242' });
    expect([added.status, added.location]).toEqual([303, '/billing?notice=card_added']);
    const page = await owner.get(added.location!);
    expect(textOf(page.html)).toMatch(/The card is saved\..*visa ending in 4242\s+12\/\d{4}/);
    const [card] = await db.query(`SELECT id, payment_method_id FROM payment_cards WHERE account_id = $1`, [acct.accountId]);
    expect(card.payment_method_id).not.toContain('4242424242424242');

    const removed = await owner.post(`/billing/cards/${card.id}/remove`);
    expect([removed.status, removed.location]).toEqual([303, '/billing?notice=card_removed']);
    expect(textOf((await owner.get('/billing')).html)).toContain('No saved card yet.');
    expect((await owner.post(`/billing/cards/${card.id}/remove`)).status).toBe(404);
    expect(await db.query(`SELECT action, detail FROM audit_log WHERE account_id = $1 AND action LIKE 'billing.%' ORDER BY id`, [acct.accountId])).toEqual([
      { action: 'billing.card_added', detail: 'visa ending in 4242' },
      { action: 'billing.card_removed', detail: 'visa ending in 4242' },
    ]);
  });

  it('saves and clears the billing notification address, which then receives the invoices', async () => {
    const acct = await accountWithOwner(t.app);
    const owner = await signedIn(t.app, acct.ownerEmail);
    await owner.get('/billing');
    const wrong = await owner.post('/billing/notification-address', { billing_email: 'not an address' });
    expect([wrong.status, textOf(wrong.html).includes('Enter a valid email address, or leave it empty to email the owner')]).toEqual([400, true]);
    const address = `accounts.${acct.accountId}@example.com.au`;
    const saved = await owner.post('/billing/notification-address', { billing_email: address.toUpperCase() });
    expect([saved.status, saved.location]).toEqual([303, '/billing?notice=billing_email_saved']);
    expect(await db.query(`SELECT billing_email FROM accounts WHERE id = $1`, [acct.accountId])).toEqual([{ billing_email: address }]);

    await enablePurchases(t.app, acct);
    await addCard(t.app, acct.accountId);
    const bought = await buyCredits(t, acct, { credits: 500 });
    await smtp.mailTo(address, /^Tax invoice/);
    await owner.get('/billing');
    const cleared = await owner.post('/billing/notification-address', { billing_email: '' });
    expect(cleared.status).toBe(303);
    expect(await db.query(`SELECT billing_email FROM accounts WHERE id = $1`, [acct.accountId])).toEqual([{ billing_email: null }]);
    await buyCredits(t, acct, { credits: 500 });
    await smtp.mailTo(acct.ownerEmail, /^Tax invoice/);

    const list = textOf((await owner.get('/billing')).html);
    expect(list).toContain(`${bought.body.invoice_number}`);
    expect(list).toMatch(/500 SMS credits\s+\$22\.00\s+default\s+fulfilled/);
  });

  it('downloads invoices as PDF, only the account’s own', async () => {
    const acct = await accountWithOwner(t.app);
    await enablePurchases(t.app, acct);
    await addCard(t.app, acct.accountId);
    const bought = await buyCredits(t, acct, { credits: 1000 });
    const owner = await signedIn(t.app, acct.ownerEmail);
    const pdf = await owner.get(`/billing/invoices/${bought.body.invoice_number}`);
    expect([pdf.status, pdf.headers['content-type'], pdf.headers['content-disposition']]).toEqual([
      200,
      'application/pdf',
      `attachment; filename="${bought.body.invoice_number}.pdf"`,
    ]);
    expect(pdf.html.startsWith('%PDF-')).toBe(true);

    const other = await accountWithOwner(t.app);
    const stranger = await signedIn(t.app, other.ownerEmail);
    expect((await stranger.get(`/billing/invoices/${bought.body.invoice_number}`)).status).toBe(404);
    expect((await stranger.get('/billing/invoices/../../etc')).status).toBe(404);
  });

  it('is for the owner and manage_billing users: others see no link and get 403; forms need their CSRF token', async () => {
    const acct = await accountWithOwner(t.app);
    const billing = await signedIn(t.app, await userWith(t.app, acct.accountId, ['manage_billing']));
    const billingPage = await billing.get('/billing');
    expect(billingPage.status).toBe(200);
    expect(billingPage.html).toContain('href="/billing"');
    expect((await billing.post('/billing/cards', { card: '4242424242424242' })).status).toBe(303);

    const keys = await signedIn(t.app, await userWith(t.app, acct.accountId, ['manage_api_keys', 'manage_senders', 'manage_settings']));
    const overview = await keys.get('/overview');
    expect(overview.html).not.toContain('href="/billing"');
    const refused = await keys.get('/billing');
    expect(refused.status).toBe(403);
    for (const action of ['/billing/cards', '/billing/notification-address', '/billing/cards/1/remove']) {
      expect([action, (await keys.post(action, { card: '4242424242424242', billing_email: 'x@example.com' })).status]).toEqual([action, 403]);
    }
    expect((await keys.get('/billing/invoices/INV-00000001')).status).toBe(403);

    const owner = await signedIn(t.app, acct.ownerEmail);
    await owner.get('/billing');
    expect((await owner.post('/billing/cards', { card: '5555555555554444', _csrf: 'forged' })).status).toBe(403);
    expect(await db.query(`SELECT last4 FROM payment_cards WHERE account_id = $1 ORDER BY id`, [acct.accountId])).toEqual([{ last4: '4242' }]);
  });
});
