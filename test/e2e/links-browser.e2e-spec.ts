import { createServer, Server } from 'node:http';
import { AddressInfo, createServer as createNetServer } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { DataSource } from 'typeorm';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { inspectPage, launchChromium, SCREENSHOTS, watchForProblems } from '../support/browser';
import { createAccount, startTestApp, TestApp } from '../support/test-app';

// A browser journey with axe on every page takes tens of seconds on a shared 2-core machine.
jest.setTimeout(120_000);

/** A free loopback port, so SHORT_LINK_BASE can name the address the app will listen on. */
async function freePort(): Promise<number> {
  const probe = createNetServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/** Short links and the opt-out page in headless Chromium at a phone's size, as a recipient opens them from a text. */
describe('Links in a browser (phone)', () => {
  let t: TestApp;
  let base: string;
  let shop: Server;
  let shopBase: string;
  let browser: Browser;
  let page: Page;
  let problems: string[];
  const accessibility: string[] = [];

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    t = await startTestApp({ appRole: 'api', shortLinkBase: base });
    await t.app.listen({ port, host: '127.0.0.1' });
    // The advertiser's site the short link points to.
    shop = createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(
        `<!doctype html><html lang="en"><head><meta name="viewport" content="width=device-width"><title>Harbour Bakery sale</title></head><body><main><h1>Spring sale</h1><p>${req.url}</p></main></body></html>`,
      );
    });
    await new Promise<void>((resolve) => shop.listen(0, '127.0.0.1', resolve));
    // A short link never points at a loopback address, so the shop has a public-looking name the browser maps to it.
    shopBase = `http://shop.example.com.au:${(shop.address() as AddressInfo).port}`;
    browser = await launchChromium(['--host-resolver-rules=MAP shop.example.com.au 127.0.0.1']);
    page = await (await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true })).newPage();
    problems = watchForProblems(page);
  });
  afterAll(async () => {
    await browser?.close();
    await new Promise<void>((resolve) => (shop ? shop.close(() => resolve()) : resolve()));
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

  it('opens a shortened link and lands on the target; the click is counted', async () => {
    const acct = await createAccount(t.app, { test: true, senders: ['Harbour'], name: 'Harbour Bakery' });
    const sent = await t.api.post('/v1/messages', {
      auth: acct.auth,
      body: { shorten_urls: true, messages: [{ to: '0412000001', sender: 'Harbour', message: `Spring sale today: ${shopBase}/sale?src=sms` }] },
    });
    const shortUrl = /(http:\/\/127\.0\.0\.1:\d+\/[0-9A-Za-z]{7})$/.exec(sent.body.results[0].message)![1];
    expect(shortUrl.startsWith(base)).toBe(true);

    await page.goto(shortUrl);
    await page.waitForURL(`${shopBase}/sale?src=sms`);
    await expectText('Spring sale');
    mkdirSync(SCREENSHOTS, { recursive: true });
    await page.screenshot({ path: path.join(SCREENSHOTS, 'short-link-target-phone.png'), fullPage: true });

    const clicks = (await t.api.get('/v1/link-clicks', { auth: acct.auth, query: { message_id: sent.body.results[0].message_id } })).body.results;
    expect(clicks).toEqual([expect.objectContaining({ url: `${shopBase}/sale?src=sms`, short_url: shortUrl, clicks: 1 })]);
  });

  it('opens the {optout} link, confirms, and the number is unsubscribed (source link) and blocked on the next send', async () => {
    const acct = await createAccount(t.app, { test: true, senders: ['Harbour'], name: 'Harbour Bakery' });
    const sent = await t.api.post('/v1/messages', { auth: acct.auth, body: { messages: [{ to: '0412000002', sender: 'Harbour', message: 'Fresh bread at 7{optout}' }] } });
    const optoutUrl = /OptOut (http:\/\/\S+)$/.exec(sent.body.results[0].message)![1];

    await page.goto(optoutUrl);
    await expectText('ending in 002');
    await check('optout-confirm');
    await page.getByRole('button', { name: 'Unsubscribe' }).tap();
    await expectText('You are unsubscribed');
    await check('optout-done');

    const unsubscribes = (await t.api.get('/v1/unsubscribes', { auth: acct.auth })).body.results;
    expect(unsubscribes).toEqual([{ number: '61412000002', source: 'link', unsubscribed_at: expect.any(String) }]);
    const next = await t.api.post('/v1/messages', { auth: acct.auth, body: { messages: [{ to: '0412000002', sender: 'Harbour', message: 'Again' }] } });
    expect(next.body.results[0]).toMatchObject({ status: 'blocked', error: 'Recipient has unsubscribed' });
  });

  it('the account link asks for the number: a wrong one is explained beside the field, a right one unsubscribes', async () => {
    const acct = await createAccount(t.app, { test: true, senders: ['Harbour'], name: 'Harbour Bakery' });
    const [{ optout_code }] = await t.app.get(DataSource).query(`SELECT optout_code FROM accounts WHERE id = $1`, [acct.accountId]);
    await page.goto(`${base}/o/${optout_code}`);
    await page.getByLabel('Your mobile number').fill('02 9876 5432');
    await page.getByRole('button', { name: 'Unsubscribe' }).tap();
    await expectText('Enter an Australian mobile number');
    await check('optout-account-error');
    await page.getByLabel('Your mobile number').fill('0412 000 003');
    await page.getByRole('button', { name: 'Unsubscribe' }).tap();
    await expectText('You are unsubscribed');
    expect((await t.api.get('/v1/unsubscribes', { auth: acct.auth })).body.results).toEqual([{ number: '61412000003', source: 'link', unsubscribed_at: expect.any(String) }]);
  });
});
