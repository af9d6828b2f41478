import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { inspectPage, launchChromium, watchForProblems } from '../support/browser';
import { emailFor, PASSWORD } from '../support/dashboard';
import { SmtpPeer } from '../support/smtp-peer';
import { basicAuth, startTestApp, TestApp } from '../support/test-app';

// A browser journey with axe on every page takes tens of seconds on a shared 2-core machine.
jest.setTimeout(120_000);

/** A new business on its own in headless Chromium: sign up, confirm by the emailed link, create the first key; every page checked with axe. */
describe('Sign-up in a browser', () => {
  let t: TestApp;
  let base: string;
  let browser: Browser;
  const smtp = new SmtpPeer();
  const accessibility: string[] = [];
  const problems: string[] = [];

  beforeAll(async () => {
    await smtp.start();
    t = await startTestApp({ smtpUrl: smtp.url });
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

  it('signs up from the sign-in page, confirms by the emailed link, lands signed in on a test account and creates its first key', async () => {
    const email = emailFor('browser-signup');
    const page = await (await browser.newContext({ baseURL: base })).newPage();
    problems.push(...watchForProblems(page));
    await page.goto('/sign-in');
    await page.getByRole('link', { name: 'Create a free test account' }).click();
    await page.waitForURL('**/sign-up');
    accessibility.push(...(await inspectPage(page, 'sign-up')));

    await page.getByLabel('Your name').fill('Ada Baker');
    await page.getByLabel('Business name').fill('Harbour Bakery');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill('short');
    await page.getByLabel('Password again').fill('short');
    // The browser's own minlength check would stop the form; the server's rule is what is tested here.
    await page.locator('form[action="/sign-up"]').evaluate((f) => f.setAttribute('novalidate', ''));
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByText('Passwords must be at least 12 characters').waitFor();
    expect(await page.getByLabel('Business name').inputValue()).toBe('Harbour Bakery');
    accessibility.push(...(await inspectPage(page, 'sign-up-error')));

    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Password again').fill(PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByText(`We have emailed ${email} a link`).waitFor();
    accessibility.push(...(await inspectPage(page, 'sign-up-sent')));

    const mail = await smtp.mailTo(email, /Confirm your email/);
    const link = /https?:\/\/\S+(\/sign-up\/verify\/[A-Za-z0-9_-]+)/.exec(mail.text)![1];
    await page.goto(link);
    accessibility.push(...(await inspectPage(page, 'sign-up-verify')));
    await page.getByRole('button', { name: 'Open my test account' }).click();
    await page.waitForURL('**/overview?notice=signed_up');
    await page.getByText('Test account', { exact: true }).waitFor();
    accessibility.push(...(await inspectPage(page, 'sign-up-overview')));

    await page.getByRole('button', { name: 'Create my first API key' }).click();
    await page.getByRole('heading', { name: 'API key created' }).waitFor();
    const username = await page.locator('#key-username').innerText();
    const password = await page.locator('#key-password').innerText();

    // The new key sends at once from the sandbox sender: answered like live, costed, never charged.
    const sent = await t.api.post('/v1/messages', {
      auth: basicAuth(username, password),
      body: { messages: [{ to: '0412345678', message: 'Fresh bread at 7', sender: 'Sandbox' }] },
    });
    expect(sent.status).toBe(200);
    expect(sent.body).toMatchObject({ status: 'complete', total_cost: 1 });
    expect((sent.body as { results: Array<{ status: string }> }).results[0].status).toBe('success');
    await page.goto('/overview');
    expect(await page.getByRole('button', { name: 'Create my first API key' }).count()).toBe(0);
    expect(await page.getByTestId('balance').innerText()).toBe('0.00');
  });
});
