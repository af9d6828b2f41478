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
    await page.getByText('visa ending in 4242').waitFor();

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

    const other = await signIn(keysUser);
    expect(await nav(other).getByRole('link', { name: 'Billing', exact: true }).count()).toBe(0);
    const refused = await other.goto('/billing');
    expect(refused?.status()).toBe(403);
    await other.getByText('You do not have permission to do this').waitFor();
    accessibility.push(...(await inspectPage(other, 'billing-refused')));
  });
});
