import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { inspectPage, invalidFields, launchChromium, watchForProblems } from '../support/browser';
import { accountWithOwner, PASSWORD } from '../support/dashboard';
import { startTestApp, TestApp } from '../support/test-app';

// A browser journey with axe on every page takes tens of seconds on a shared 2-core machine.
jest.setTimeout(120_000);

/** The Keywords page in headless Chromium: a rule made on the page answers a reply, the answer shows on the Messages page and in the inbox thread, and an edit on the page changes it. */
describe('Keywords in a browser', () => {
  let t: TestApp;
  let browser: Browser;
  let page: Page;
  let problems: string[];
  const accessibility: string[] = [];

  beforeAll(async () => {
    t = await startTestApp({ testReceiptDelayMs: 100, sweepIntervalMs: 200 });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
    browser = await launchChromium();
    page = await (await browser.newContext({ baseURL: base })).newPage();
    problems = watchForProblems(page);
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });
  afterEach(() => {
    expect(problems).toEqual([]);
  });
  afterAll(() => {
    expect(accessibility).toEqual([]);
  });

  const check = async (name: string) => accessibility.push(...(await inspectPage(page, name)));
  const expectText = (text: string) => page.getByText(text, { exact: false }).first().waitFor({ state: 'visible', timeout: 5000 });

  it('creates a keyword rule on the page, refuses a bad keyword readably, and the rule’s auto-reply shows on the Messages page and in the inbox thread; an edit on the page changes the next auto-reply', async () => {
    const acct = await accountWithOwner(t.app, { test: true, senders: ['61400000001'], name: 'Harbour Bakery' });
    await t.api.post('/v1/lists', { auth: acct.auth, body: { name: 'Bread club' } });

    await page.goto('/sign-in');
    await page.getByLabel('Email').fill(acct.ownerEmail);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL('**/overview');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Keywords', exact: true }).click();
    await page.waitForURL('**/keywords');
    await expectText('No keyword rules yet.');
    await check('keywords-empty');

    await page.getByLabel('Keyword').fill('JO.N');
    await page.getByLabel('Auto-reply (optional)').fill('Welcome to the bread club!');
    await page.getByRole('button', { name: 'Add rule' }).click();
    await expectText('keyword must be 1 to 40 letters, digits or spaces');
    expect(await page.getByLabel('Auto-reply (optional)').inputValue()).toBe('Welcome to the bread club!');
    expect(await invalidFields(page)).toEqual([{ id: 'keyword', describedBy: expect.stringMatching(/^keyword must be 1 to 40 letters, digits or spaces/) }]);
    await check('keywords-form-error');

    await page.getByLabel('Keyword').fill('join');
    await page.getByLabel('Listen on number').selectOption('61400000001');
    await page.getByLabel('Add to list').selectOption({ label: 'Bread club' });
    await page.getByRole('button', { name: 'Add rule' }).click();
    await page.waitForURL('**/keywords?notice=keyword_rule_created');
    expect(await page.locator('tr[data-rule="JOIN"]').textContent()).toMatch(/1\s*First word is JOIN\s*61400000001\s*Add to Bread club\s*Welcome to the bread club!/);
    await check('keywords-with-rule');

    // A reply comes in (a test account's simulated reply takes the carrier's path).
    const res = await t.api.post('/v1/test-inbound', { auth: acct.auth, body: { from: '0412 345 678', message: 'Join please', to: '61400000001' } });
    expect(res.status).toBe(200);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Messages', exact: true }).click();
    await page.waitForURL('**/messages');
    await expectText('Welcome to the bread club!');
    await check('messages-with-auto-reply');

    // The reply and the auto-reply in the inbox thread, with the list join by keyword in its consent record.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Inbox', exact: true }).click();
    await page.waitForURL('**/inbox');
    await page
      .getByRole('link', { name: /61412345678/ })
      .first()
      .click();
    await page.waitForURL('**/inbox/61412345678');
    await expectText('Join please');
    await expectText('Welcome to the bread club!');
    expect(await page.getByRole('table', { name: /oldest first/ }).textContent()).toMatch(/Opted in\s*Keyword reply\s*“JOIN: joined list \d+”, reply /);
    await check('inbox-thread-with-auto-reply');

    // Edit the rule on the page: a new auto-reply, and the next reply gets it.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Keywords', exact: true }).click();
    await page.getByRole('link', { name: 'Edit the rule for JOIN' }).click();
    await page.waitForURL('**/keywords/*/edit');
    expect(await page.getByLabel('Auto-reply (optional)').inputValue()).toBe('Welcome to the bread club!');
    await check('keyword-edit');
    await page.getByLabel('Auto-reply (optional)').fill('Welcome back, bread lover!');
    await page.getByRole('button', { name: 'Save rule' }).click();
    await page.waitForURL('**/keywords?notice=keyword_rule_updated');
    expect(await page.locator('tr[data-rule="JOIN"]').textContent()).toContain('Welcome back, bread lover!');
    await t.api.post('/v1/test-inbound', { auth: acct.auth, body: { from: '0412 345 679', message: 'join', to: '61400000001' } });
    await page.goto('/inbox/61412345679');
    await expectText('Welcome back, bread lover!');

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Keywords', exact: true }).click();
    await page.getByRole('button', { name: 'Delete the rule for JOIN' }).click();
    await page.waitForURL('**/keywords?notice=keyword_rule_deleted');
    await expectText('No keyword rules yet.');
  });
});
