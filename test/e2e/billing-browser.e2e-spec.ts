import { DataSource } from 'typeorm';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { inspectPage, launchChromium, watchForProblems } from '../support/browser';
import { accountWithOwner, PASSWORD, userWith } from '../support/dashboard';
import { buyCredits, enablePurchases } from '../support/purchases';
import { startTestApp, TestApp } from '../support/test-app';

// A browser journey with axe on every page takes tens of seconds on a shared 2-core machine.
jest.setTimeout(120_000);

/** The Billing page's role rules in headless Chromium (JavaScript on, strict CSP), each page checked with axe and photographed. */
describe('Billing in a browser', () => {
  let t: TestApp;
  let base: string;
  let browser: Browser;
  const accessibility: string[] = [];
  const problems: string[] = [];

  beforeAll(async () => {
    t = await startTestApp({ purchaseJobsIntervalMs: 0 });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });
  afterAll(() => {
    expect(accessibility).toEqual([]);
    expect(problems).toEqual([]);
  });

  async function signIn(email: string): Promise<Page> {
    const page = await (await browser.newContext({ baseURL: base })).newPage();
    problems.push(...watchForProblems(page));
    await page.goto('/sign-in');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL('**/overview');
    return page;
  }
  const nav = (page: Page) => page.getByRole('navigation', { name: 'Main' });

  it('a billing user adds a card, sets the notification address and downloads an invoice; a user without billing sees no Billing link and is refused', async () => {
    const acct = await accountWithOwner(t.app, { name: 'Harbour Bakery' });
    const billingUser = await userWith(t.app, acct.accountId, ['manage_billing']);
    const keysUser = await userWith(t.app, acct.accountId, ['manage_api_keys']);

    const page = await signIn(billingUser);
    await nav(page).getByRole('link', { name: 'Billing', exact: true }).click();
    await page.waitForURL('**/billing');
    await page.getByText('No saved card yet.').waitFor();
    accessibility.push(...(await inspectPage(page, 'billing-empty')));

    await page.getByLabel('Test card number').fill('4111 1111 1111 1111');
    await page.getByRole('button', { name: 'Add card' }).click();
    await page.getByText('Not a test card of the simulated payment provider').waitFor();
    accessibility.push(...(await inspectPage(page, 'billing-card-error')));
    await page.getByLabel('Test card number').fill('4242 4242 4242 4242');
    await page.getByRole('button', { name: 'Add card' }).click();
    await page.waitForURL('**/billing?notice=card_added');
    await page.getByRole('cell', { name: 'visa ending in 4242' }).waitFor();

    await page.getByLabel('Email address').fill('accounts@harbour.example.com.au');
    await page.getByRole('button', { name: 'Save address' }).click();
    await page.waitForURL('**/billing?notice=billing_email_saved');
    expect(await page.getByLabel('Email address').inputValue()).toBe('accounts@harbour.example.com.au');

    await enablePurchases(t.app, acct);
    const bought = await buyCredits(t, acct, { credits: 1000 });
    await page.reload();
    const download = page.waitForEvent('download');
    await page.getByRole('link', { name: bought.body.invoice_number }).click();
    expect((await download).suggestedFilename()).toBe(`${bought.body.invoice_number}.pdf`);
    accessibility.push(...(await inspectPage(page, 'billing-with-invoice')));

    // Credits bought on the page: a double click is one purchase; the result and its invoice show at once.
    await page.getByLabel('Credits', { exact: true }).fill('1000');
    await page.getByRole('button', { name: 'Buy credits' }).dblclick();
    // The second click's submission may abort the first's navigation (the one purchase is shown either
    // way), so wait for the result's heading rather than for one navigation.
    await page.getByRole('heading', { name: 'Credits bought' }).waitFor();
    expect(new URL(page.url()).pathname).toMatch(/^\/billing\/purchases\/[^/]+$/);
    accessibility.push(...(await inspectPage(page, 'billing-purchase-result')));
    const onPage = await t.app.get(DataSource).query(`SELECT count(*)::int AS n FROM purchases WHERE account_id = $1 AND request_key LIKE 'page:%'`, [acct.accountId]);
    expect(onPage).toEqual([{ n: 1 }]);
    expect(await page.getByTestId('balance').innerText()).toBe('2000.00');

    // Auto-recharge and the warning are set on the same page.
    await page.goto('/billing');
    await page.getByLabel('Auto-recharge on').check();
    await page.getByLabel('When the balance falls below (credits)').fill('200');
    await page.getByLabel('Buy (credits)').fill('1000');
    await page.getByRole('button', { name: 'Save auto-recharge' }).click();
    await page.waitForURL('**/billing?notice=auto_recharge_on');
    await page.getByLabel('Warn below this many credits').fill('100');
    await page.getByRole('button', { name: 'Save warning' }).click();
    await page.waitForURL('**/billing?notice=warning_saved');
    expect(await page.getByLabel('When the balance falls below (credits)').inputValue()).toBe('200');
    expect(await page.getByLabel('Warn below this many credits').inputValue()).toBe('100');
    accessibility.push(...(await inspectPage(page, 'billing-auto-recharge')));

    const other = await signIn(keysUser);
    expect(await nav(other).getByRole('link', { name: 'Billing', exact: true }).count()).toBe(0);
    const refused = await other.goto('/billing');
    expect(refused?.status()).toBe(403);
    await other.getByText('You do not have permission to do this').waitFor();
    accessibility.push(...(await inspectPage(other, 'billing-refused')));
  });
});
