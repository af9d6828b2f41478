import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { DataSource } from 'typeorm';
import { TwoFactorService } from '../../src/users/two-factor/two-factor.service';
import { base32Decode, totpAt } from '../../src/users/two-factor/totp';
import { inspectPage, launchChromium, watchForProblems } from '../support/browser';
import { accountWithOwner, PASSWORD, signedIn, userWith } from '../support/dashboard';
import { PageClient, textOf } from '../support/page-client';
import { runCli } from '../support/run-cli';
import { startTestApp, TestApp } from '../support/test-app';

jest.setTimeout(180_000);

/** Two-factor sign-in in headless Chromium: set up with the app's secret, sign in with a code computed here, a recovery code once, a remembered device, turned off. */
describe('Two-factor sign-in in a browser', () => {
  let t: TestApp;
  let base: string;
  let browser: Browser;
  let problems: string[];
  const accessibility: string[] = [];

  beforeAll(async () => {
    t = await startTestApp({ twoFactorKey: 'test key for two-factor sign-in, 32+ chars' });
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
  });

  async function newPage(): Promise<Page> {
    const page = await (await browser.newContext({ baseURL: base })).newPage();
    problems = watchForProblems(page);
    return page;
  }
  async function signIn(page: Page, email: string) {
    await page.goto('/sign-in');
    await page.fill('#email', email);
    await page.fill('#password', PASSWORD);
    await page.click('button[type=submit]');
  }
  /** A code for the next step: the one just used at set-up is never accepted again. */
  const nextCode = (secret: Buffer, stepsAhead = 1) => totpAt(secret, new Date(Date.now() + stepsAhead * 30_000));

  it('sets up TOTP from the page, then signs in with a code, with a recovery code once, and skips the code on a remembered device', async () => {
    const acct = await accountWithOwner(t.app);
    const db = t.app.get(DataSource);
    const page = await newPage();
    await signIn(page, acct.ownerEmail);
    await page.waitForURL('**/overview');

    await page.goto('/profile');
    await page.click('text=Set up two-factor sign-in');
    await page.waitForURL('**/profile/two-factor');
    expect(await page.locator('figure.qr svg').count()).toBe(1);
    accessibility.push(...(await inspectPage(page, 'two-factor-setup')));
    const secretText = (await page.textContent('#totp-secret'))!.trim();
    const secret = base32Decode(secretText);
    // Stored sealed, never as the secret itself.
    const [stored] = await db.query(`SELECT totp_secret FROM users WHERE email = $1`, [acct.ownerEmail]);
    expect(stored.totp_secret.includes(secret)).toBe(false);

    await page.fill('#code', '000000' === totpAt(secret, new Date()) ? '111111' : '000000');
    await page.click('text=Turn on two-factor sign-in');
    expect(await page.textContent('[role=alert]')).toContain('That code is not right');
    await page.fill('#code', totpAt(secret, new Date()));
    await page.click('text=Turn on two-factor sign-in');
    await page.waitForSelector('ul.recovery-codes');
    const recoveryCodes = (await page.locator('ul.recovery-codes code').allTextContents()).map((c) => c.trim());
    expect(recoveryCodes).toHaveLength(10);
    accessibility.push(...(await inspectPage(page, 'two-factor-recovery-codes')));
    const [row] = await db.query(`SELECT cardinality(recovery_codes) AS n, totp_enabled_at IS NOT NULL AS on FROM users WHERE email = $1`, [acct.ownerEmail]);
    expect(row).toEqual({ n: 10, on: true });
    expect(JSON.stringify(await db.query(`SELECT recovery_codes::text FROM users WHERE email = $1`, [acct.ownerEmail]))).not.toContain(recoveryCodes[0].replace('-', ''));

    // A new browser: the password alone is not enough.
    const second = await newPage();
    await signIn(second, acct.ownerEmail);
    await second.waitForURL('**/sign-in/two-factor**');
    accessibility.push(...(await inspectPage(second, 'two-factor-sign-in')));
    expect((await second.request.get('/overview', { maxRedirects: 0 })).status()).toBe(303);
    await second.fill('#code', nextCode(secret));
    await second.check('input[name=remember]');
    await second.click('button[type=submit]');
    await second.waitForURL('**/overview');
    const cookies = await second.context().cookies();
    const device = cookies.find((c) => c.name === 'tfd')!;
    expect(device.httpOnly).toBe(true);
    expect(device.expires * 1000 - Date.now()).toBeLessThanOrEqual(30 * 24 * 3600 * 1000 + 60_000);

    // The remembered device signs in with the password alone.
    await second.context().clearCookies({ name: 'sid' });
    await signIn(second, acct.ownerEmail);
    await second.waitForURL('**/overview');

    // A third browser with a recovery code: works once.
    const third = await newPage();
    await signIn(third, acct.ownerEmail);
    await third.waitForURL('**/sign-in/two-factor**');
    await third.fill('#code', recoveryCodes[0].toLowerCase());
    await third.click('button[type=submit]');
    await third.waitForURL('**/overview');
    const fourth = await newPage();
    await signIn(fourth, acct.ownerEmail);
    await fourth.waitForURL('**/sign-in/two-factor**');
    await fourth.fill('#code', recoveryCodes[0]);
    await fourth.click('button[type=submit]');
    expect(await fourth.textContent('[role=alert]')).toContain('That code is not right');

    const audit = await db.query(`SELECT action FROM audit_log WHERE account_id = $1 AND action LIKE 'two_factor.%' ORDER BY id`, [acct.accountId]);
    expect(audit.map((a: { action: string }) => a.action)).toEqual(['two_factor.enabled', 'two_factor.recovery_code_used']);
    expect(problems).toEqual([]);
  });

  it('limits wrong codes per user (429 with Retry-After), and an operator reset (user:reset-2fa) turns it off and forgets remembered devices', async () => {
    const acct = await accountWithOwner(t.app);
    const twoFactor = t.app.get(TwoFactorService);
    const [{ id: userId }] = await t.app.get(DataSource).query(`SELECT id FROM users WHERE email = $1`, [acct.ownerEmail]);
    const actor = { userId, accountId: acct.accountId, email: acct.ownerEmail, isOwner: true, permissions: [], ip: '' };
    const secret = base32Decode((await twoFactor.enrolment(actor)).secret);
    await twoFactor.confirmEnrolment(actor, totpAt(secret, new Date()));

    const page = await newPage();
    await signIn(page, acct.ownerEmail);
    await page.waitForURL('**/sign-in/two-factor**');
    for (let i = 0; i < 5; i++) {
      await page.fill('#code', `${100000 + i}`);
      await page.click('button[type=submit]');
      await page.waitForSelector('[role=alert]');
    }
    const refused = await page.request.post('/sign-in/two-factor', { form: { code: nextCode(secret), _csrf: (await page.inputValue('input[name=_csrf]'))! }, maxRedirects: 0 });
    expect(refused.status()).toBe(429);
    expect(Number(refused.headers()['retry-after'])).toBeGreaterThan(1);

    const reset = await runCli('user:reset-2fa', '--email', acct.ownerEmail);
    expect([reset.code, reset.stderr, reset.stdout]).toEqual([0, '', expect.any(String)]);
    expect(reset.json).toEqual({ email: acct.ownerEmail, account_id: acct.accountId, two_factor: 'off', was_on: true });
    const after = await newPage();
    await signIn(after, acct.ownerEmail);
    await after.waitForURL('**/overview');
    const [entry] = await t.app.get(DataSource).query(`SELECT actor, action, detail FROM audit_log WHERE account_id = $1 AND action = 'two_factor.reset'`, [acct.accountId]);
    expect(entry).toMatchObject({ action: 'two_factor.reset', detail: acct.ownerEmail });
  });

  it("lets the owner reset a user's two-factor sign-in (audited), and nobody else", async () => {
    const acct = await accountWithOwner(t.app);
    const staffEmail = await userWith(t.app, acct.accountId, ['manage_settings']);
    const db = t.app.get(DataSource);
    const [{ id: staffId }] = await db.query(`SELECT id FROM users WHERE email = $1`, [staffEmail]);
    const twoFactor = t.app.get(TwoFactorService);
    const staff = { userId: staffId, accountId: acct.accountId, email: staffEmail, isOwner: false, permissions: [], ip: '' };
    await twoFactor.confirmEnrolment(staff, totpAt(base32Decode((await twoFactor.enrolment(staff)).secret), new Date()));

    const owner = await signedIn(t.app, acct.ownerEmail);
    expect(textOf((await owner.get(`/users/${staffId}`)).html)).toContain('Reset two-factor sign-in');
    // Two-factor is on: the password alone leads to the code page, not in.
    const asStaff = new PageClient(t.app, { remoteAddress: '10.9.0.1' });
    await asStaff.get('/sign-in');
    expect((await asStaff.post('/sign-in', { email: staffEmail, password: PASSWORD })).location).toBe('/sign-in/two-factor?next=%2Foverview');
    expect((await asStaff.get('/overview')).status).toBe(303);
    const done = await owner.post(`/users/${staffId}/reset-two-factor`, {});
    expect([done.status, done.location]).toEqual([303, '/users?notice=two_factor_reset']);
    expect(await twoFactor.isEnabled(staffId)).toBe(false);
    const [entry] = await db.query(`SELECT actor, action, detail FROM audit_log WHERE account_id = $1 AND action = 'two_factor.reset'`, [acct.accountId]);
    expect(entry).toMatchObject({ actor: acct.ownerEmail, detail: staffEmail });
    const staffBrowser = await signedIn(t.app, staffEmail, PASSWORD, '10.9.0.2');
    expect((await staffBrowser.post(`/users/${staffId}/reset-two-factor`, {})).status).toBe(403);
  });
});
