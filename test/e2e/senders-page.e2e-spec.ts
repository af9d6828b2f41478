import { DataSource } from 'typeorm';
import { accountWithOwner, DashboardAccount, signedIn, userWith } from '../support/dashboard';
import { PageClient, textOf } from '../support/page-client';
import { startTestApp, TestApp } from '../support/test-app';
import { until } from '../support/wait';

/** The Sender IDs page without JavaScript: what it shows, its forms and their errors, who may use it, and the audit log. */
describe('Dashboard: Sender IDs', () => {
  let t: TestApp;
  let db: DataSource;
  let mobile = 0;
  const nextMobile = () => `04136${String(++mobile).padStart(5, '0')}`;

  beforeAll(async () => {
    // No SMSC configured: live accounts' texts go to the simulator, whose receipts come after 100 ms.
    t = await startTestApp({ testReceiptDelayMs: 100, sweepIntervalMs: 200, dashboardUrl: 'https://dash.example.com.au' });
    db = t.app.get(DataSource);
  });
  afterAll(() => t.close());

  async function sendersUser(acct: DashboardAccount): Promise<{ browser: PageClient; email: string }> {
    const email = await userWith(t.app, acct.accountId, ['manage_senders']);
    return { browser: await signedIn(t.app, email), email };
  }
  /** Posts a form from the page, as a browser would (a fresh CSRF token first). */
  async function submit(browser: PageClient, action: string, fields: Record<string, string>) {
    await browser.get('/senders');
    return browser.post(action, fields);
  }

  it('lists the active senders with their type and label, and only own and alpha ones can be deactivated', async () => {
    const acct = await accountWithOwner(t.app, { senders: ['Brand', '61400000601'] });
    await db.query(`UPDATE senders SET label = 'Main brand' WHERE account_id = $1 AND value = 'Brand'`, [acct.accountId]);
    const { browser } = await sendersUser(acct);
    const res = await browser.get('/senders');
    expect(res.status).toBe(200);
    const text = textOf(res.html);
    expect(text).toContain('Active senders Sender Type Label Actions Brand Sender ID Main brand Deactivate… 61400000601 Dedicated number');
    expect(res.html.match(/\/deactivate"/g)).toHaveLength(1);
    expect(text).toContain('No registrations yet.');
    expect(text).toContain('No dedicated number is available right now.');
  });

  it('registers an own mobile: pending with its text’s state, a new link on request, withdrawn with confirmation; every step audited', async () => {
    const acct = await accountWithOwner(t.app);
    const { browser, email } = await sendersUser(acct);
    const number = nextMobile();
    const normalised = `61${number.slice(1)}`;
    const posted = await submit(browser, '/senders/own', { number, label: 'Front desk' });
    expect([posted.status, posted.location]).toEqual([303, '/senders?notice=own_link_sent']);
    const page = await browser.get(posted.location!);
    expect(textOf(page.html)).toContain('We texted a confirmation link to the number.');
    expect(textOf(page.html)).toMatch(
      new RegExp(`Waiting for confirmation ${normalised} Label Front desk Link texted \\S+ \\S+ AE[DS]T Text message (being sent|sent, awaiting delivery|delivered)`),
    );
    await until(async () => textOf((await browser.get('/senders')).html).includes('Text message delivered'), 'the text’s receipt on the page');

    const id = (await db.query(`SELECT id FROM senders WHERE account_id = $1 AND value = $2`, [acct.accountId, normalised]))[0].id;
    const resent = await submit(browser, `/senders/${id}/resend`, {});
    expect(resent.location).toBe('/senders?notice=own_link_resent');
    expect((await db.query(`SELECT count(*)::int AS n FROM sender_verifications WHERE sender_id = $1 AND retired_at IS NULL`, [id]))[0].n).toBe(1);

    const confirmPage = await browser.get(`/senders/${id}/deactivate`);
    expect(textOf(confirmPage.html)).toContain(`Withdraw ${normalised}? The confirmation link texted to ${normalised} stops working.`);
    const withdrawn = await browser.post(`/senders/${id}/deactivate`);
    expect(withdrawn.location).toBe('/senders?notice=sender_deactivated');
    expect(textOf((await browser.get('/senders')).html)).not.toContain('Waiting for confirmation');

    expect(await db.query(`SELECT actor, action, detail FROM audit_log WHERE account_id = $1 AND action LIKE 'sender%' ORDER BY id`, [acct.accountId])).toEqual([
      { actor: email, action: 'sender.own_registered', detail: normalised },
      { actor: email, action: 'sender.own_link_resent', detail: normalised },
      { actor: email, action: 'sender.deactivated', detail: `${normalised} (own, awaiting confirmation)` },
    ]);
    const owner = await signedIn(t.app, acct.ownerEmail);
    const audit = textOf((await owner.get('/audit')).html);
    expect(audit).toContain('Registered a mobile as sender (confirmation text sent)');
    expect(audit).toContain('Deactivated a sender');
  });

  it('shows each form’s error beside it with the status and keeps what was typed', async () => {
    const acct = await accountWithOwner(t.app);
    const { browser } = await sendersUser(acct);
    const own = await submit(browser, '/senders/own', { number: '02 9999 9999', label: 'Desk' });
    expect(own.status).toBe(400);
    expect(own.html).toContain('<div class="notice notice-error" role="alert"><p id="form-error">Invalid phone number format</p></div>');
    expect(own.html).toContain('aria-invalid="true" aria-describedby="form-error own-number-hint"');
    expect(own.html).toContain('value="02 9999 9999"');

    const registration = await submit(browser, '/senders/registrations', { sender: 'MyBrand', business_name: 'Bakery', abn: '51 824 753 557', reason: 'Receipts' });
    expect(registration.status).toBe(400);
    expect(textOf(registration.html)).toContain('That is not a valid ABN: its check digits do not match. Check it and try again.');
    expect(registration.html).toContain('value="51 824 753 557"');

    await t.app.get(DataSource).query(`INSERT INTO dedicated_numbers (number, annual_price_cents) VALUES ('61400000699', 0)`);
    const address = await submit(browser, '/senders/free-number', { street: '10 Smith St', suburb: 'Sydney', state: '', postcode: '2000' });
    expect(address.status).toBe(400);
    expect(textOf(address.html)).toContain('service_address must include a state or territory: NSW, VIC, QLD, WA, SA, TAS, ACT or NT');
    expect(address.html).toContain('value="10 Smith St"');

    const claimed = await submit(browser, '/senders/free-number', { street: '10 Smith St', suburb: 'Sydney', state: 'NSW', postcode: '2000' });
    expect(claimed.location).toBe('/senders?notice=free_number_claimed');
    const text = textOf((await browser.get('/senders')).html);
    expect(text).toContain('Free dedicated number Number 61400000699 Service address 10 Smith St, Sydney NSW 2000 Claimed');
    expect(text).toContain('61400000699 Dedicated number');
  });

  it('refuses what cannot be deactivated, and other accounts’ senders, with error pages', async () => {
    const acct = await accountWithOwner(t.app, { senders: ['61400000602'] });
    const other = await accountWithOwner(t.app, { senders: ['Elsewhere'] });
    const { browser } = await sendersUser(acct);
    const [dedicated] = await db.query(`SELECT id FROM senders WHERE account_id = $1`, [acct.accountId]);
    const [foreign] = await db.query(`SELECT id FROM senders WHERE account_id = $1`, [other.accountId]);
    for (const [path, status, text] of [
      [`/senders/${dedicated.id}/deactivate`, 409, 'Dedicated numbers cannot be removed: a dedicated number ends with its subscription'],
      [`/senders/${foreign.id}/deactivate`, 404, 'Sender not found'],
      ['/senders/abc/deactivate', 404, 'Sender not found'],
    ] as Array<[string, number, string]>) {
      const res = await browser.get(path);
      expect([path, res.status, textOf(res.html).includes(text)]).toEqual([path, status, true]);
    }
    await browser.get('/senders');
    expect((await browser.post(`/senders/${foreign.id}/deactivate`)).status).toBe(404);
    expect((await browser.post(`/senders/${foreign.id}/resend`)).status).toBe(404);
    expect((await t.api.get('/v1/senders', { auth: other.auth })).body.results.map((s: { sender: string }) => s.sender)).toEqual(['Elsewhere']);
  });

  it('lets only the owner and manage_senders users act; forms need their CSRF token', async () => {
    const acct = await accountWithOwner(t.app, { senders: ['Brand'] });
    const keys = await signedIn(t.app, await userWith(t.app, acct.accountId, ['manage_api_keys', 'manage_billing', 'manage_settings']));
    await keys.get('/overview');
    for (const [action, fields] of [
      ['/senders/own', { number: nextMobile() }],
      ['/senders/registrations', { sender: 'Sneaky', business_name: 'X', abn: '51824753556', reason: 'x' }],
      ['/senders/free-number', { street: '1 A St', state: 'NSW', postcode: '2000' }],
      ['/senders/1/deactivate', {}],
    ] as Array<[string, Record<string, string>]>) {
      const res = await keys.post(action, fields);
      expect([action, res.status, textOf(res.html).includes('You do not have permission to do this')]).toEqual([action, 403, true]);
    }
    const owner = await signedIn(t.app, acct.ownerEmail);
    await owner.get('/senders');
    const forged = await owner.post('/senders/own', { number: nextMobile(), _csrf: 'forged' });
    expect(forged.status).toBe(403);
    expect((await owner.post('/senders/own', { number: nextMobile() })).status).toBe(303);
    expect(await db.query(`SELECT count(*)::int AS n FROM senders WHERE account_id = $1`, [acct.accountId])).toEqual([{ n: 2 }]);
  });
});
