import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { DataSource } from 'typeorm';
import { inspectPage, launchChromium, watchForProblems } from '../support/browser';
import { emailFor, PASSWORD } from '../support/dashboard';
import { runCli, runCliWithEnv } from '../support/run-cli';
import { SmtpPeer } from '../support/smtp-peer';
import { basicAuth, startTestApp, TestApp } from '../support/test-app';
import { until } from '../support/wait';

// A whole journey in a browser with axe on every page, and three operator CLI processes: minutes on a loaded 2-core machine.
jest.setTimeout(300_000);

/**
 * Issue 30's whole path for a business on its own, in headless Chromium (JavaScript on, strict CSP; every
 * page photographed as a phone and a desktop and checked with axe): sign up, confirm by the emailed link,
 * the test account and its first key, a send answered like live, the request to go live, the operator's
 * approval at the CLI, credit bought on the Billing page with its invoice listed, auto-recharge set, and
 * sends crossing the threshold at once that buy exactly once.
 */
describe('A business on its own, from sign-up to auto-recharge, in a browser', () => {
  let t: TestApp;
  let base: string;
  let browser: Browser;
  const smtp = new SmtpPeer();
  const accessibility: string[] = [];
  const problems: string[] = [];

  beforeAll(async () => {
    await smtp.start();
    t = await startTestApp({ smtpUrl: smtp.url, purchaseJobsIntervalMs: 0, inflightLimit: 50 });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await smtp.stop();
  });
  afterAll(() => {
    expect(accessibility).toEqual([]);
    expect(problems).toEqual([]);
  });

  it('signs up, tries the test account, goes live by the operator, buys credit on the page and auto-recharges exactly once', async () => {
    const db = t.app.get(DataSource);
    const email = emailFor('journey');
    const page = await (await browser.newContext({ baseURL: base })).newPage();
    problems.push(...watchForProblems(page));

    // Sign up and confirm by the emailed link.
    await page.goto('/sign-in');
    await page.getByRole('link', { name: 'Create a free test account' }).click();
    await page.getByLabel('Your name').fill('Ada Baker');
    await page.getByLabel('Business name').fill('Harbour Bakery');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Password again').fill(PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByText(`We have emailed ${email} a link`).waitFor();
    const mail = await smtp.mailTo(email, /Confirm your email/);
    await page.goto(/https?:\/\/\S+(\/sign-up\/verify\/[A-Za-z0-9_-]+)/.exec(mail.text)![1]);
    await page.getByRole('button', { name: 'Open my test account' }).click();
    await page.waitForURL('**/overview?notice=signed_up');
    await page.getByText('Test account', { exact: true }).waitFor();
    accessibility.push(...(await inspectPage(page, 'journey-1-test-account')));

    // The first key, and a send answered like live (costed, nothing charged, nothing delivered).
    await page.getByRole('button', { name: 'Create my first API key' }).click();
    await page.getByRole('heading', { name: 'API key created' }).waitFor();
    const auth = basicAuth(await page.locator('#key-username').innerText(), await page.locator('#key-password').innerText());
    const tried = await t.api.post('/v1/messages', { auth, body: { messages: [{ to: '0412345678', message: 'Fresh bread at 7', sender: 'Sandbox' }] } });
    expect([tried.status, tried.body.status, tried.body.total_cost, tried.body.results[0].status]).toEqual([200, 'complete', 1, 'success']);
    const [{ account_id: accountId }] = await db.query(`SELECT account_id FROM users WHERE email = $1`, [email]);

    // Ask to go live from the overview.
    await page.goto('/overview');
    await page.getByRole('link', { name: 'Go live' }).click();
    await page.waitForURL('**/go-live');
    await page.getByLabel('Legal business name').fill('Harbour Bakery Pty Ltd');
    await page.getByLabel('ABN').fill('51 824 753 557');
    await page.getByLabel('Intended use').fill('Order-ready texts to customers who ordered online, about 2000 a month');
    await page.getByRole('button', { name: 'Request a live account' }).click();
    await page.getByText('That is not a valid ABN: its check digits do not match. Check it and try again.').waitFor();
    accessibility.push(...(await inspectPage(page, 'journey-2-go-live-error')));
    await page.getByLabel('ABN').fill('51 824 753 556');
    await page.getByRole('button', { name: 'Request a live account' }).click();
    await page.waitForURL('**/go-live?notice=live_requested#form-heading');
    await page.getByText('Waiting for review').waitFor();
    accessibility.push(...(await inspectPage(page, 'journey-3-go-live-pending')));

    // The operator reviews and approves at the CLI; the owner is emailed.
    const queue = await runCli('account:review', '--list');
    const request = queue.json.requests.find((r: { account_id: number }) => r.account_id === accountId);
    expect(request).toMatchObject({ owner_email: email, abn: '51824753556', state: 'pending' });
    const approved = await runCliWithEnv({ SMTP_URL: smtp.url }, 'account:approve', '--id', String(request.request_id));
    expect([approved.code, approved.json.state, approved.json.test]).toEqual([0, 'approved', false]);
    await smtp.mailTo(email, /Harbour Bakery is live/);
    await page.goto('/go-live');
    await page.getByText('This account is live').waitFor();
    accessibility.push(...(await inspectPage(page, 'journey-4-live')));
    // Same key, now live: a registered sender (here the operator's) is needed, and sends cost credits.
    expect((await t.api.get('/v1/account', { auth })).body).toMatchObject({ test_account: false, credit_balance: 0 });
    expect((await runCli('sender:add', '--account', String(accountId), '--sender', 'Harbour', '--type', 'alpha')).code).toBe(0);

    // Credit bought on the Billing page with a card added there; the invoice is listed at once.
    await page.goto('/billing');
    await page.getByLabel('Test card number').fill('4242 4242 4242 4242');
    await page.getByRole('button', { name: 'Add card' }).click();
    await page.waitForURL('**/billing?notice=card_added');
    await page.getByLabel('Credits', { exact: true }).fill('1000');
    await page.getByRole('button', { name: 'Buy credits' }).dblclick();
    // The second click's submission may abort the first's navigation (the one purchase is shown either
    // way), so wait for the result's heading rather than for one navigation.
    await page.getByRole('heading', { name: 'Credits bought' }).waitFor();
    expect(new URL(page.url()).pathname).toMatch(/^\/billing\/purchases\/[^/]+$/);
    accessibility.push(...(await inspectPage(page, 'journey-5-bought')));
    expect(await page.getByTestId('balance').innerText()).toBe('1000.00');
    await page.goto('/billing');
    const invoices = page
      .locator('table')
      .filter({ has: page.getByRole('columnheader', { name: 'Invoice' }) })
      .locator('tbody tr');
    expect(await invoices.count()).toBe(1);
    expect(await invoices.first().innerText()).toMatch(/INV-\S+/);

    // Auto-recharge: below 995 credits buy 500, at most 3 a day.
    await page.getByLabel('Auto-recharge on').check();
    await page.getByLabel('When the balance falls below (credits)').fill('995');
    await page.getByLabel('Buy (credits)').fill('500');
    await page.getByRole('button', { name: 'Save auto-recharge' }).click();
    await page.waitForURL('**/billing?notice=auto_recharge_on');
    accessibility.push(...(await inspectPage(page, 'journey-6-auto-recharge')));

    // Twelve sends at once take the balance from 1000 to 988, below 995: one crossing, one recharge.
    const sends = await Promise.all(
      Array.from({ length: 12 }, () => t.api.post('/v1/messages', { auth, body: { messages: [{ to: '0412345678', message: 'Fresh bread at 7', sender: 'Harbour' }] } })),
    );
    expect(sends.map((s) => s.status)).toEqual(Array(12).fill(200));
    await until(async () => (await t.api.get('/v1/account', { auth })).body.credit_balance === 1488, 'the recharge to land');
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const recharges = await db.query(`SELECT state FROM purchases WHERE account_id = $1 AND request_key LIKE 'auto-recharge:%'`, [accountId]);
    expect(recharges).toEqual([{ state: 'fulfilled' }]);
    expect(await db.query(`SELECT count(*)::int AS n FROM balance_crossings WHERE account_id = $1`, [accountId])).toEqual([{ n: 1 }]);
    await page.goto('/billing');
    expect(await invoices.count()).toBe(2);
    await page.getByText('bought 500 credits').first().waitFor();
    accessibility.push(...(await inspectPage(page, 'journey-7-recharged')));
    expect((await runCli('ledger:verify', '--account', String(accountId))).json.ok).toBe(true);
  });
});
