import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { DataSource } from 'typeorm';
import { inspectPage, launchChromium, watchForProblems } from '../support/browser';
import { accountWithOwner, PASSWORD } from '../support/dashboard';
import { startTestApp, TestApp } from '../support/test-app';
import { until } from '../support/wait';

// The project compiles without the DOM library: inside page.evaluate this is the browser's own global.
declare const document: any;

// A browser journey with axe on every page takes tens of seconds on a shared 2-core machine.
jest.setTimeout(120_000);

/** The Inbox in headless Chromium (JavaScript on, strict CSP), each page checked with axe and photographed at phone and desktop sizes. */
describe('Inbox in a browser', () => {
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

  it('a reply from POST /v1/test-inbound appears in the inbox as unread → the thread → a reply sent from it is dispatched', async () => {
    const acct = await accountWithOwner(t.app, { test: true, credits: 5, senders: ['61400000001'], name: 'Harbour Bakery' });
    await t.api.post('/v1/messages', { auth: acct.auth, body: { messages: [{ to: '0412910001', message: 'Your bread is ready', sender: '61400000001' }] } });
    const res = await t.api.post('/v1/test-inbound', { auth: acct.auth, body: { from: '0412910001', message: 'Can you keep it until 6?' } });
    expect(res.status).toBe(200);

    await page.goto('/sign-in');
    await page.getByLabel('Email').fill(acct.ownerEmail);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL('**/overview');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Inbox', exact: true }).click();
    await page.waitForURL('**/inbox');
    await page.getByText('1 unread').waitFor();
    await check('inbox-list');

    await page.getByRole('link', { name: '61412910001' }).click();
    await page.getByRole('heading', { name: 'Conversation with 61412910001' }).waitFor();
    await page.getByText('Can you keep it until 6?').waitFor();
    await page.getByText('Your bread is ready').waitFor();
    await check('inbox-thread');
    await page.getByRole('textbox', { name: 'Message' }).fill('Of course, see you at 6');
    await page.getByRole('button', { name: 'Send reply' }).click();
    await page.waitForURL(/notice=reply_sent$/);
    await page.getByText('Reply sent.').waitFor();
    await page.getByText('Of course, see you at 6').waitFor();
    await check('inbox-thread-replied');

    const [sent] = await t.app.get(DataSource).query(`SELECT id FROM messages WHERE account_id = $1 AND body = $2`, [acct.accountId, 'Of course, see you at 6']);
    await until(
      async () => (await t.api.get('/v1/messages', { auth: acct.auth, query: { message_id: sent.id } })).body.results[0].status === 'delivered',
      'the reply to be delivered',
    );
    await page.getByRole('link', { name: '← Inbox' }).click();
    await page.getByRole('cell', { name: '0', exact: true }).waitFor();
  });

  it('a thread whose messages hold a long link fits a phone: the text wraps, the page never scrolls sideways', async () => {
    const acct = await accountWithOwner(t.app, { test: true, credits: 5, senders: ['61400000002'], name: 'Harbour Bakery' });
    const link = 'https://harbourbakery.example.com.au/specials/sourdough-and-croissants-this-weekend';
    await t.api.post('/v1/messages', { auth: acct.auth, body: { messages: [{ to: '0412910002', message: `Fresh bread at 4pm: ${link}`, sender: '61400000002' }] } });
    await t.api.post('/v1/test-inbound', { auth: acct.auth, body: { from: '0412910002', message: `Is this still on? ${link}` } });

    await page.context().clearCookies();
    await page.goto('/sign-in');
    await page.getByLabel('Email').fill(acct.ownerEmail);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL('**/overview');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/inbox/61412910002');
    await page.getByText(`Is this still on? ${link}`).waitFor();
    const { scrollWidth, clientWidth } = await page.evaluate(() => ({ scrollWidth: document.scrollingElement!.scrollWidth, clientWidth: document.scrollingElement!.clientWidth }));
    expect(scrollWidth).toBeLessThanOrEqual(clientWidth);
    await check('inbox-thread-long-link');
  });
});
