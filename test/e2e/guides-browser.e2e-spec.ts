import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { inspectPage, launchChromium, watchForProblems } from '../support/browser';
import { accountWithOwner, PASSWORD } from '../support/dashboard';
import { startTestApp, TestApp } from '../support/test-app';

// A browser journey with axe on every page takes tens of seconds on a shared 2-core machine.
jest.setTimeout(120_000);

/** The guides in docs/ served as pages, reached from the dashboard's header and from /docs, in headless Chromium under the strict CSP. */
describe('Guides in a browser', () => {
  let t: TestApp;
  let base: string;
  let browser: Browser;
  let page: Page;
  let problems: string[];
  const accessibility: string[] = [];

  beforeAll(async () => {
    t = await startTestApp({ appRole: 'api' });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
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

  it('signs in, opens Guides from the header, reads the webhooks guide and follows its links', async () => {
    const { ownerEmail } = await accountWithOwner(t.app, { name: 'Harbour Bakery' });
    await page.goto('/sign-in');
    await page.getByLabel('Email').fill(ownerEmail);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL('**/overview');

    await page.getByRole('banner').getByRole('link', { name: 'Guides' }).click();
    await page.waitForURL('**/guides');
    await check('guides');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Guides');
    await page.getByRole('link', { name: 'Webhooks', exact: true }).click();
    await page.waitForURL('**/guides/webhooks');
    await check('guide-webhooks');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Webhooks');
    // Rendered Markdown: headings with their anchors, tables, code blocks.
    expect(await page.locator('h2#verifying-a-webhook').count()).toBe(1);
    expect(await page.locator('article.guide table').count()).toBeGreaterThan(0);
    expect(await page.locator('article.guide pre code').first().textContent()).toContain('"message_id"');

    // A recipe file the guide links to is served as it is.
    const recipe = await page.request.get(
      await page
        .getByRole('link', { name: 'docs/webhook-signature/verify.py' })
        .getAttribute('href')
        .then((h) => h!),
    );
    expect(recipe.status()).toBe(200);
    expect(await recipe.text()).toContain('def verify_webhook_signature(');

    // Another guide by its link, and an unknown one answers the 404 page.
    await page.goto('/guides/webhooks');
    await page.getByRole('link', { name: 'API reference' }).click();
    await page.waitForURL('**/docs');
    expect(await page.title()).toBe('SMS Platform API reference');
    const missing = await page.goto('/guides/no-such-guide');
    expect(missing?.status()).toBe(404);
  });

  it('links every guide to files and anchors that exist when served', async () => {
    await page.goto('/guides');
    const guides = await page.locator('ul.guide-list a').evaluateAll((links) => links.map((a) => a.getAttribute('href')!));
    expect(guides.length).toBeGreaterThan(8);
    const broken: string[] = [];
    for (const guide of guides) {
      await page.goto(guide);
      const hrefs = await page.locator('article.guide a[href]').evaluateAll((links) => links.map((a) => a.getAttribute('href')!));
      for (const href of hrefs.filter((h) => h.startsWith('/guides') || h.startsWith('#'))) {
        const [path, anchor] = href.startsWith('#') ? [guide, href.slice(1)] : href.split('#');
        const res = await page.request.get(path);
        if (res.status() !== 200) broken.push(`${guide} → ${href}: ${res.status()}`);
        else if (anchor && !(await res.text()).includes(`id="${anchor}"`)) broken.push(`${guide} → ${href}: no such anchor`);
      }
    }
    expect(broken).toEqual([]);
  });
});
