import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { inspectPage, launchChromium, watchForProblems } from '../support/browser';
import { accountWithOwner, PASSWORD } from '../support/dashboard';
import { startTestApp, TestApp } from '../support/test-app';

// The project compiles without the DOM library: inside page.evaluate these are the browser's own globals.
declare const document: any;
declare const location: any;
declare function getComputedStyle(element: unknown): any;

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
      [...document.querySelectorAll('.table-wrap')]
        .filter((wrap) => wrap.scrollWidth > wrap.clientWidth)
        .filter((wrap) => wrap.tabIndex < 0 && !wrap.querySelector('a[href], button, input, select, textarea, [tabindex]'))
        .map((wrap) => `${location.pathname}: table headed "${wrap.querySelector('th')?.textContent?.trim()}"`),
    );

  /** Column headers a screen reader would announce as nothing: at phone width a header may be hidden from sight, never from it. */
  const silentHeaders = () =>
    page.evaluate(() =>
      [...document.querySelectorAll('th')]
        .filter((th) => th.innerText.trim() === '')
        .map((th) => `${location.pathname}: column ${th.cellIndex + 1} of the table headed "${th.closest('tr')?.cells[0]?.innerText.trim()}" has an empty header`),
    );

  async function signIn(email: string) {
    await page.context().clearCookies();
    await page.goto('/sign-in');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL('**/overview');
  }

  it('a table that scrolls sideways on a phone (overview, users, audit log) can be scrolled from the keyboard', async () => {
    const acct = await accountWithOwner(t.app, { test: true, credits: 5, senders: ['Harbour'], name: 'Harbour Bakery' });
    await t.api.post('/v1/messages', { auth: acct.auth, body: { messages: [{ to: '0412910003', message: 'Fresh bread at 4pm', sender: 'Harbour' }] } });

    await signIn(acct.ownerEmail);
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

  it('every column header says what its column is, on a phone too (users, sender IDs, a list, saved cards)', async () => {
    const acct = await accountWithOwner(t.app, { credits: 5, senders: ['Harbour'], name: 'Harbour Bakery' });
    const listId = (await t.api.post('/v1/lists', { auth: acct.auth, body: { name: 'Regulars' } })).body.list_id as number;
    await t.api.post('/v1/list-contacts', { auth: acct.auth, body: { number: '0412910004', list_id: listId } });
    await signIn(acct.ownerEmail);
    await page.goto('/billing');
    await page.getByLabel('Test card number').fill('4242424242424242');
    await page.getByRole('button', { name: 'Add card' }).click();
    await page.getByText('The card is saved.').waitFor();

    const silent: string[] = [];
    for (const path of ['/users', '/senders', `/contacts/lists/${listId}`, '/billing']) {
      await page.goto(path);
      expect(await page.locator('th').count()).toBeGreaterThan(0);
      silent.push(...(await silentHeaders()));
      // Hidden from sight must not mean wider than the phone: the page itself never scrolls sideways.
      const { scrollWidth, clientWidth } = await page.evaluate(() => ({ scrollWidth: document.scrollingElement.scrollWidth, clientWidth: document.scrollingElement.clientWidth }));
      if (scrollWidth > clientWidth) silent.push(`${path}: the page is ${scrollWidth} px wide in ${clientWidth}`);
    }
    expect(silent).toEqual([]);
  });

  it('the focus ring of every stop on the way through a page contrasts at least 3:1 with what is around it (WCAG 1.4.11)', async () => {
    const acct = await accountWithOwner(t.app, { test: true, credits: 5, senders: ['Harbour'], name: 'Harbour Bakery' });
    await signIn(acct.ownerEmail);
    const weak = new Set<string>();
    for (const path of ['/send', '/settings/api', '/contacts']) {
      await page.goto(path);
      for (let stop = 0; stop < 80; stop++) {
        await page.keyboard.press('Tab');
        const ring = await page.evaluate(() => {
          const focused = document.activeElement;
          if (!focused || focused === document.body) return null;
          const rgb = (css: string) => (css.match(/[\d.]+/g) ?? []).map(Number);
          const luminance = ([r, g, b]: number[]) =>
            [r, g, b].map((v) => (v / 255 <= 0.04045 ? v / 255 / 12.92 : ((v / 255 + 0.055) / 1.055) ** 2.4)).reduce((sum, v, i) => sum + v * [0.2126, 0.7152, 0.0722][i], 0);
          let around = focused.parentElement;
          while (around && (rgb(getComputedStyle(around).backgroundColor)[3] ?? 1) === 0) around = around.parentElement;
          const background = rgb(around ? getComputedStyle(around).backgroundColor : 'rgb(255, 255, 255)');
          const style = getComputedStyle(focused);
          const [light, dark] = [luminance(rgb(style.outlineColor)), luminance(background)].sort((a, b) => b - a);
          const what = `${location.pathname} ${focused.tagName.toLowerCase()} "${(focused.textContent ?? '').trim().slice(0, 20) || focused.id}"`;
          // A date input's picker button has focus inside the input: Chromium draws its own ring round it.
          const inside = !focused.matches(':focus');
          return { what, ratio: (light + 0.05) / (dark + 0.05), style: style.outlineStyle, inside };
        });
        if (!ring) break;
        // 'auto' is Chromium's own two-colour ring, which contrasts with any background.
        if (!ring.inside && ring.style !== 'auto' && (ring.style === 'none' || ring.ratio < 3)) weak.add(`${ring.what}: ${ring.style} ${ring.ratio.toFixed(2)}:1`);
      }
    }
    expect([...weak]).toEqual([]);
  });
});
