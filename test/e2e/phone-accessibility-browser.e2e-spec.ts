import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { inspectPage, launchChromium, watchForProblems } from '../support/browser';
import { accountWithOwner, PASSWORD } from '../support/dashboard';
import { startTestApp, TestApp } from '../support/test-app';

jest.setTimeout(120_000);

/** Dashboard pages at a phone's width (390 px) in headless Chromium: axe run at that width, and what a keyboard needs there. */
describe('Dashboard at phone width in a browser', () => {
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
    page = await (await browser.newContext({ baseURL: base, viewport: { width: 390, height: 844 } })).newPage();
    problems = watchForProblems(page);
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });
  afterEach(() => {
    expect(problems).toEqual([]);
  });

  /** Tables wider than the phone scroll inside their box; a keyboard scrolls it only when the box, or something in it, takes focus. */
  const unreachableScrollers = () =>
    page.evaluate(() =>
      [...document.querySelectorAll<HTMLElement>('.table-wrap')]
        .filter((wrap) => wrap.scrollWidth > wrap.clientWidth)
        .filter((wrap) => wrap.tabIndex < 0 && !wrap.querySelector('a[href], button, input, select, textarea, [tabindex]'))
        .map((wrap) => `${location.pathname}: table headed "${wrap.querySelector('th')?.textContent?.trim()}"`),
    );

  it('a table that scrolls sideways on a phone (overview, users, audit log) can be scrolled from the keyboard', async () => {
    const acct = await accountWithOwner(t.app, { test: true, credits: 5, senders: ['Harbour'], name: 'Harbour Bakery' });
    await t.api.post('/v1/messages', { auth: acct.auth, body: { messages: [{ to: '0412910003', message: 'Fresh bread at 4pm', sender: 'Harbour' }] } });

    await page.goto('/sign-in');
    await page.getByLabel('Email').fill(acct.ownerEmail);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL('**/overview');
    // Something for the audit log.
    await page.goto('/settings/api');
    await page.getByLabel('Label').fill('Online store, Harbour Bakery website');
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.getByRole('heading', { name: 'API key created' }).waitFor();

    const unreachable: string[] = [];
    for (const [path, name] of [
      ['/overview', 'phone-overview'],
      ['/users', 'phone-users'],
      ['/audit', 'phone-audit'],
    ]) {
      await page.goto(path);
      unreachable.push(...(await unreachableScrollers()));
      accessibility.push(...(await inspectPage(page, name)));
    }
    expect(unreachable).toEqual([]);
    expect(accessibility).toEqual([]);
  });
});
