import { createHmac } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { ApiKeysService } from '../../src/accounts/api-keys.service';
import { UsersService } from '../../src/users/users.service';
import { inspectPage, launchChromium, watchForProblems } from '../support/browser';
import { PASSWORD, emailFor, setPasswordByLink } from '../support/dashboard';
import { linkIn, SmtpPeer } from '../support/smtp-peer';
import { basicAuth, createAccount, startTestApp, TestApp } from '../support/test-app';
import { until } from '../support/wait';
import { WebhookReceiver } from '../support/webhook-receiver';

// A browser journey with axe on every page takes tens of seconds on a shared 2-core machine.
jest.setTimeout(120_000);

/** The dashboard in real headless Chromium, JavaScript on, under the strict CSP: the journeys of issue 11, each page checked with axe and photographed. */
describe('Dashboard in a browser', () => {
  let t: TestApp;
  let base: string;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let problems: string[];
  const accessibility: string[] = [];
  const smtp = new SmtpPeer();
  const receiver = new WebhookReceiver();

  beforeAll(async () => {
    await Promise.all([smtp.start(), receiver.start()]);
    t = await startTestApp({ smtpUrl: smtp.url, webhookAllowPrivate: true, testReceiptDelayMs: 100, sweepIntervalMs: 200 });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
    browser = await launchChromium();
    context = await browser.newContext({ baseURL: base });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
    page = await context.newPage();
    problems = watchForProblems(page);
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await Promise.all([smtp.stop(), receiver.stop()]);
  });
  afterEach(() => {
    expect(problems).toEqual([]);
  });
  afterAll(() => {
    expect(accessibility).toEqual([]);
  });

  const check = async (name: string) => accessibility.push(...(await inspectPage(page, name)));
  const api = (auth: string, path = '/v1/account') => fetch(`${base}${path}`, { headers: { authorization: auth } });

  it('invitation email → set password → sign in → create a key, read its password once and copy it → use it → revoke it → the key gets 401; rotate the webhook secret; sign out', async () => {
    const acct = await createAccount(t.app, { test: true, credits: 25, senders: ['Brand'], name: 'Harbour Bakery' });
    const email = emailFor('browser-owner');
    await t.app.get(UsersService).createByOperator(acct.accountId, { email, owner: true });
    const link = new URL(linkIn(await smtp.mailTo(email, /invited to Harbour Bakery/)));

    await page.goto(link.pathname);
    await check('set-password');
    await page.getByLabel('New password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('New password again').fill(PASSWORD);
    await page.getByRole('button', { name: 'Set password' }).click();
    await page.waitForURL('**/sign-in?notice=password_set');
    await check('sign-in');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL('**/overview');
    expect(await page.getByTestId('balance').textContent()).toBe('25.00');
    await expectText('Harbour Bakery Test account');

    // A send, so the overview and the messages pages have something to show.
    await api(acct.auth); // first use of the account's own key
    const sent = await fetch(`${base}/v1/messages`, {
      method: 'POST',
      headers: { authorization: acct.auth, 'content-type': 'application/json' },
      body: JSON.stringify({ messages: [{ to: '0412345678', message: 'Your order is ready', sender: 'Brand' }] }),
    }).then((r) => r.json() as Promise<{ results: Array<{ message_id: string }> }>);
    await until(async () => (await t.api.get('/v1/messages', { auth: acct.auth, query: { status: 'delivered' } })).body.total === 1, 'delivery');
    await page.reload();
    await check('overview');
    await nav('Messages');
    await check('messages');
    await page
      .getByRole('link', { name: /AE[DS]T/ })
      .first()
      .click();
    await page.waitForURL(`**/messages/${sent.results[0].message_id}`);
    await check('message');

    // Settings > API: create a key; its password is on this page only.
    await nav('API keys');
    await check('settings-api');
    await page.getByLabel('Label').fill('Online store');
    await page.getByRole('button', { name: 'Create key' }).click();
    await expectText('This is the only time the password is shown.');
    await check('key-created');
    const username = (await page.locator('#key-username').textContent())!.trim();
    const password = (await page.locator('#key-password').textContent())!.trim();
    expect(password).toMatch(/^[A-Za-z0-9]{40}$/);
    // The copy button is made to work by /assets/app.js (no inline script under the CSP).
    const copy = page.locator('button[data-copy="key-password"]');
    await copy.click();
    await expectText('Copied');
    // Runs in the page (the tests' TypeScript has no DOM types).
    expect(await page.evaluate(() => (globalThis as any).navigator.clipboard.readText())).toBe(password);
    const key = basicAuth(username, password);
    expect((await api(key)).status).toBe(200);

    await page.getByRole('link', { name: 'Done' }).click();
    expect(await page.content()).not.toContain(password);
    await page.getByRole('region', { name: 'Online store' }).getByRole('link', { name: 'Revoke this key…' }).click();
    await check('key-revoke');
    await page.getByRole('button', { name: 'Revoke key' }).click();
    await page.waitForURL('**/settings/api?notice=key_revoked');
    const refused = await api(key);
    expect(refused.status).toBe(401);
    expect(await refused.json()).toEqual({ error: 'Invalid API username or password' });

    // Settings > Webhooks: a status URL, then a signing secret shown once; the next webhook is signed with it.
    await nav('Webhooks');
    await page.getByLabel('Status URL for delivery receipts').fill(receiver.url('/status'));
    await page.getByRole('button', { name: 'Save URLs' }).click();
    await page.waitForURL('**/settings/webhooks?notice=webhooks_saved');
    await check('settings-webhooks');
    await page.getByRole('button', { name: 'Create a signing secret' }).click();
    const first = (await page.locator('#signing-secret').textContent())!.trim();
    await check('webhook-secret');
    await page.getByRole('link', { name: 'Done' }).click();
    await page.getByRole('button', { name: 'Rotate the signing secret' }).click();
    const secret = (await page.locator('#signing-secret').textContent())!.trim();
    expect(secret).toMatch(/^whsec_/);
    expect(secret).not.toBe(first);
    receiver.received.length = 0;
    await fetch(`${base}/v1/messages`, {
      method: 'POST',
      headers: { authorization: acct.auth, 'content-type': 'application/json' },
      body: JSON.stringify({ messages: [{ to: '0412345679', message: 'Signed receipt', sender: 'Brand' }] }),
    });
    await until(() => receiver.received.length > 0, 'the status webhook');
    const hook = receiver.received[0];
    const expected = createHmac('sha256', secret).update(`${hook.headers['x-mm-timestamp']}.${hook.raw}`).digest('hex');
    expect(hook.headers['x-mm-signature']).toBe(expected);

    // A test event from the page: signed with the same secret, then found with the deliveries' filter.
    await nav('Webhooks');
    receiver.received.length = 0;
    await page.getByLabel(/Send a test event/).selectOption('status');
    await page.getByRole('button', { name: 'Send a test event' }).click();
    await page.waitForURL('**/settings/webhooks?notice=webhook_test_sent');
    await expectText('A test webhook is on its way.');
    await until(() => receiver.received.some((r) => r.raw.includes('"test":true')), 'the test event');
    const test = receiver.received.find((r) => r.raw.includes('"test":true'))!;
    expect(test.headers['x-mm-signature']).toBe(createHmac('sha256', secret).update(`${test.headers['x-mm-timestamp']}.${test.raw}`).digest('hex'));
    await page.getByLabel('Result').selectOption('delivered');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL('**/settings/webhooks?event=&result=delivered');
    await until(async () => (await page.reload(), (await page.locator('table tbody tr').count()) >= 2), 'both deliveries listed');
    await check('settings-webhooks-deliveries');

    // The owner's pages.
    await nav('Users');
    await check('users');
    await nav('Audit log');
    await expectText('Rotated the webhook signing secret');
    await check('audit');
    await page.goto('/profile');
    await check('profile');
    await page.goto('/no-such-page');
    await check('not-found');

    // Sign out: the session is over on the server.
    await page.goto('/overview');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL('**/sign-in?notice=signed_out');
    await expectText('You have signed out.');
    await page.goto('/overview');
    await page.waitForURL('**/sign-in?next=%2Foverview');
  });

  it('lets a manage_api_keys user switch purchases off but not on (no control, and a forged form gets a 403 page)', async () => {
    const acct = await createAccount(t.app, { name: 'Key Keepers' });
    const ownerEmail = emailFor('browser-owner2');
    await setPasswordByLink(t.app, (await t.app.get(UsersService).createByOperator(acct.accountId, { email: ownerEmail, owner: true })).link);
    const email = emailFor('browser-keys');
    await setPasswordByLink(t.app, (await t.app.get(UsersService).createByOperator(acct.accountId, { email, permissions: ['manage_api_keys'] })).link);
    await t.app.get(ApiKeysService).setPurchases(acct.username, true, 50000);
    const keyId = (await t.app.get(ApiKeysService).listActive(acct.accountId))[0].id;

    await context.clearCookies();
    await page.goto('/sign-in');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL('**/overview');
    await nav('API keys');
    await page.getByLabel('Purchases by API').selectOption('off');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL('**/settings/api?notice=purchases_saved');
    expect((await t.app.get(ApiKeysService).listActive(acct.accountId))[0].purchasesEnabled).toBe(false);
    await expectText('Only users who can manage billing can switch purchases on.');
    expect(await page.locator(`#purchases-${keyId}`).count()).toBe(0);
    await check('settings-api-keys-manager');

    // Posted anyway: the server refuses.
    await page.locator(`form[action="/settings/api/keys/${keyId}/purchases"] input[name="purchases"]`).evaluate((input) => ((input as unknown as { value: string }).value = 'on'));
    await page.getByRole('button', { name: 'Save' }).click();
    await expectText('Only users who can manage billing can enable purchases');
    await check('forbidden');
    expect((await t.app.get(ApiKeysService).listActive(acct.accountId))[0].purchasesEnabled).toBe(false);
  });

  const nav = (name: string) => page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true }).click();

  async function expectText(text: string): Promise<void> {
    await page.getByText(text, { exact: false }).first().waitFor({ state: 'visible', timeout: 5000 });
  }
});
