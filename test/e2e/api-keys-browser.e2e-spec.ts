import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { inspectPage, invalidFields, launchChromium, watchForProblems } from '../support/browser';
import { accountWithOwner, PASSWORD } from '../support/dashboard';
import { basicAuth, startTestApp, TestApp } from '../support/test-app';

// A browser journey with axe on every page takes tens of seconds on a shared 2-core machine.
jest.setTimeout(180_000);

/** Settings › API in headless Chromium: a key created with limited scopes, a cap and an allow-list, then used and refused. */
describe('Scoped API keys in a browser', () => {
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
  afterEach(() => expect(problems).toEqual([]));
  afterAll(() => expect(accessibility).toEqual([]));

  const check = async (name: string) => accessibility.push(...(await inspectPage(page, name)));
  const call = (auth: string, method: string, path: string, body?: unknown) =>
    fetch(`${base}${path}`, {
      method,
      headers: { authorization: auth, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    }).then(async (r) => [r.status, await r.json()] as [number, unknown]);

  it('creates a read-only key with a cap, sees its send refused, then limits it to another address and sees every call refused', async () => {
    const acct = await accountWithOwner(t.app, { credits: 10, senders: ['Brand'], name: 'Scoped Shop' });
    await page.goto('/sign-in');
    await page.getByLabel('Email').fill(acct.ownerEmail);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL('**/overview');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'API keys', exact: true }).click();
    await page.waitForURL('**/settings/api');
    await check('settings-api-scopes');

    // A bad cap first: the page says what to fix and keeps what was typed.
    await page.getByLabel('Label').fill('Reporting');
    await page.locator('#cap-new').fill('0');
    await page.getByRole('button', { name: 'Create key' }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toContain('The daily message cap must be a whole number from 1 to 100000, or empty for no cap');
    expect(await page.getByLabel('Label').inputValue()).toBe('Reporting');
    // The cap is the field marked, read out with the error and then its hint.
    expect(await invalidFields(page)).toEqual([
      {
        id: 'cap-new',
        describedBy:
          "The daily message cap must be a whole number from 1 to 100000, or empty for no cap | Messages a day, in the account's time zone (1 to 100000). Empty: no cap.",
      },
    ]);
    await check('settings-api-scopes-error');

    for (const scope of ['messages-send', 'contacts', 'senders', 'webhooks', 'account']) await page.locator(`#scope-${scope}-new`).uncheck();
    await page.locator('#cap-new').fill('100');
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.waitForURL('**/settings/api/keys');
    const username = (await page.locator('#key-username').textContent())!;
    const password = (await page.locator('#key-password').textContent())!;
    const auth = basicAuth(username, password);

    expect(await call(auth, 'GET', '/v1/messages')).toEqual([200, expect.objectContaining({ results: [] })]);
    expect(await call(auth, 'POST', '/v1/messages', { messages: [{ to: '0412345678', message: 'Hi', sender: 'Brand' }] })).toEqual([
      403,
      { error: 'This API key does not have the messages:send scope' },
    ]);
    expect(await call(auth, 'GET', '/v1/contacts')).toEqual([403, { error: 'This API key does not have the contacts scope' }]);

    await page.getByRole('link', { name: 'Done' }).click();
    await page.waitForURL('**/settings/api');
    const panel = page.getByRole('region', { name: 'Reporting' });
    await expect(panel.getByText('messages:read', { exact: true }).count()).resolves.toBeGreaterThan(0);
    await panel.getByText('Change scopes, addresses and cap').click();
    await panel.getByLabel('Allowed client addresses').fill('203.0.113.0/24\n2001:db8::/33');
    await panel.getByRole('button', { name: 'Save access' }).click();
    await page.waitForURL('**/settings/api?notice=key_access_saved');
    await check('settings-api-scopes-saved');
    expect(await page.getByRole('region', { name: 'Reporting' }).textContent()).toContain('203.0.113.0/24, 2001:db8::/33');
    expect(await call(auth, 'GET', '/v1/messages')).toEqual([403, { error: 'This API key cannot be used from this address' }]);

    // A bad block is refused with its text and the key keeps its list.
    const again = page.getByRole('region', { name: 'Reporting' });
    await again.getByText('Change scopes, addresses and cap').click();
    await again.getByLabel('Allowed client addresses').fill('10.0.0.0/33');
    await again.getByRole('button', { name: 'Save access' }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toContain('"10.0.0.0/33" is not an IP address or CIDR block');
    // Only the key's own field is marked, not the create form's field of the same name.
    expect(await invalidFields(page)).toEqual([
      { id: expect.stringMatching(/^cidrs-\d+$/), describedBy: expect.stringMatching(/^"10\.0\.0\.0\/33" is not an IP address or CIDR block/) },
    ]);
    await check('settings-api-key-access-error');
    expect(await call(auth, 'GET', '/v1/messages')).toEqual([403, { error: 'This API key cannot be used from this address' }]);

    await page.goto('/audit');
    await expect(page.getByText('Changed API key access').count()).resolves.toBe(1);
  });
});
