import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { DataSource } from 'typeorm';
import { PAGES } from '../../src/dashboard/navigation';
import { base32Decode, totpAt } from '../../src/users/two-factor/totp';
import { TwoFactorService } from '../../src/users/two-factor/two-factor.service';
import { inspectPage, launchChromium, watchForProblems } from '../support/browser';
import { accountWithOwner, PASSWORD, signedIn, userWith } from '../support/dashboard';
import { textOf } from '../support/page-client';
import { startTestApp, TestApp } from '../support/test-app';

jest.setTimeout(180_000);

const REQUIRED = 'Your account requires two-factor sign-in. Set it up on Your profile › Two-factor sign-in to continue.';

/** The owner's switch requiring two-factor sign-in of every user: set on Settings › Security, enforced on every dashboard route. */
describe('Requiring two-factor sign-in for every user of an account', () => {
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
  async function turnOnFor(email: string, accountId: number): Promise<Buffer> {
    const twoFactor = t.app.get(TwoFactorService);
    const [{ id: userId }] = await t.app.get(DataSource).query(`SELECT id FROM users WHERE email = $1`, [email]);
    const actor = { userId, accountId, email, isOwner: false, permissions: [], ip: '' };
    const secret = base32Decode((await twoFactor.enrolment(actor)).secret);
    await twoFactor.confirmEnrolment(actor, totpAt(secret, new Date()));
    return secret;
  }
  const audited = async (accountId: number) =>
    (await t.app.get(DataSource).query(`SELECT actor, action, detail FROM audit_log WHERE account_id = $1 AND action LIKE 'two_factor.%' ORDER BY id`, [accountId])) as Array<{
      actor: string;
      action: string;
      detail: string;
    }>;

  it('is switched on by the owner (who needs it first), holds a user without it on the set-up page until a code from their app is confirmed, and an owner reset sends them back', async () => {
    const acct = await accountWithOwner(t.app);
    const staffEmail = await userWith(t.app, acct.accountId, ['send_messages', 'manage_contacts']);

    // The owner, without two-factor sign-in, cannot require it: they would be held too.
    const owner = await newPage();
    await signIn(owner, acct.ownerEmail);
    await owner.waitForURL('**/overview');
    await owner.click('nav >> text=Security');
    await owner.waitForURL('**/settings/security');
    expect(await owner.textContent('[data-testid=two-factor-required]')).toBe('each user chooses');
    await owner.check('input[name=require_two_factor]');
    await owner.click('text=Save');
    expect(await owner.textContent('[role=alert]')).toContain('Set up two-factor sign-in for yourself first');
    expect(await audited(acct.accountId)).toEqual([]);

    await turnOnFor(acct.ownerEmail, acct.accountId);
    await owner.goto('/settings/security');
    expect(await owner.locator('[data-testid=without-two-factor] li').allTextContents()).toEqual([staffEmail]);
    await owner.check('input[name=require_two_factor]');
    await owner.click('text=Save');
    await owner.waitForURL('**/settings/security?notice=two_factor_required');
    expect(await owner.textContent('[data-testid=two-factor-required]')).toBe('required for every user');
    accessibility.push(...(await inspectPage(owner, 'two-factor-required-settings')));
    expect(await audited(acct.accountId)).toEqual([
      expect.objectContaining({ action: 'two_factor.enabled' }),
      { actor: acct.ownerEmail, action: 'two_factor.required', detail: '' },
    ]);
    // The owner already has it: their pages open as before.
    expect((await owner.request.get('/overview', { maxRedirects: 0 })).status()).toBe(200);

    // The staff user's next sign-in lands on the set-up page; nothing else opens, whatever is asked for.
    const staff = await newPage();
    await signIn(staff, staffEmail);
    await staff.waitForURL('**/profile/two-factor');
    expect(await staff.textContent('main')).toContain('Your account requires two-factor sign-in. Set it up now to continue');
    expect(await staff.locator('nav a').count()).toBe(0);
    accessibility.push(...(await inspectPage(staff, 'two-factor-required-setup')));
    for (const path of ['/overview', '/send', '/contacts', '/messages', '/profile']) {
      const res = await staff.request.get(path, { maxRedirects: 0 });
      expect([path, res.status(), res.headers()['location']]).toEqual([path, 303, '/profile/two-factor']);
    }
    const csrf = await staff.inputValue('input[name=_csrf]');
    const post = await staff.request.post('/contacts', { form: { _csrf: csrf, phone: '0412345678' }, maxRedirects: 0 });
    expect(post.status()).toBe(403);
    expect(textOf(await post.text())).toContain(REQUIRED);

    // Set up with the app's secret and a code computed here: every page opens again, and it cannot be turned off.
    const secret = base32Decode((await staff.textContent('#totp-secret'))!.trim());
    await staff.fill('#code', totpAt(secret, new Date()));
    await staff.click('text=Turn on two-factor sign-in');
    await staff.waitForSelector('ul.recovery-codes');
    await staff.click('text=Continue to your profile');
    await staff.waitForURL('**/profile');
    expect(await staff.locator('nav a').count()).toBeGreaterThan(0);
    expect((await staff.request.get('/send', { maxRedirects: 0 })).status()).toBe(200);
    await staff.goto('/profile/two-factor');
    expect(await staff.textContent('main')).toContain('Your account requires two-factor sign-in, so it stays on');
    const off = await staff.request.post('/profile/two-factor/disable', {
      form: { _csrf: await staff.inputValue('input[name=_csrf]'), code: totpAt(secret, new Date(Date.now() + 30_000)) },
    });
    expect(textOf(await off.text())).toContain('Your account requires two-factor sign-in, so it cannot be turned off');
    const [{ on }] = await t.app.get(DataSource).query(`SELECT totp_enabled_at IS NOT NULL AS on FROM users WHERE email = $1`, [staffEmail]);
    expect(on).toBe(true);

    // The owner resets it from the Users page: the staff user's open session is held on the set-up page again.
    await owner.goto('/users');
    expect(await owner.textContent('tbody')).not.toContain('Off');
    await owner.click(`[aria-label="Edit ${staffEmail}"]`);
    await owner.click('text=Reset two-factor sign-in');
    await owner.waitForURL('**/users?notice=two_factor_reset');
    expect(await owner.locator('tbody .badge', { hasText: 'Off' }).count()).toBe(1);
    await staff.goto('/messages');
    await staff.waitForURL('**/profile/two-factor');
    expect(await staff.locator('figure.qr svg').count()).toBe(1);

    // Switched off again: the staff user may open pages without it.
    await owner.goto('/settings/security');
    await owner.uncheck('input[name=require_two_factor]');
    await owner.click('text=Save');
    await owner.waitForURL('**/settings/security?notice=two_factor_optional');
    await staff.goto('/messages');
    expect(new URL(staff.url()).pathname).toBe('/messages');
    expect((await audited(acct.accountId)).map((a) => a.action)).toEqual([
      'two_factor.enabled',
      'two_factor.required',
      'two_factor.enabled',
      'two_factor.reset',
      'two_factor.not_required',
    ]);
    expect(problems).toEqual([]);
  });

  it('refuses every dashboard page (GET sent to set-up, POST 403) to a user without it, and only the owner sees or changes the switch', async () => {
    const acct = await accountWithOwner(t.app);
    const staffEmail = await userWith(t.app, acct.accountId, [
      'send_messages',
      'manage_contacts',
      'manage_settings',
      'manage_billing',
      'manage_api_keys',
      'read_inbox',
      'manage_senders',
    ]);
    const staff = await signedIn(t.app, staffEmail, PASSWORD, '10.8.0.1');
    // Not the owner: the switch is not theirs.
    expect((await staff.get('/settings/security')).status).toBe(403);
    expect((await staff.post('/settings/security/two-factor', { require_two_factor: 'on' })).status).toBe(403);

    await t.app.get(DataSource).query(`UPDATE accounts SET require_two_factor = true WHERE id = $1`, [acct.accountId]);

    for (const page of Object.values(PAGES)) {
      const res = await staff.get(page.path);
      expect([page.path, res.status, res.location]).toEqual([page.path, 303, '/profile/two-factor']);
    }
    await staff.get('/profile/two-factor');
    const refused = await staff.post('/send', { to: '0412345678', message: 'hi' });
    expect(refused.status).toBe(403);
    expect(textOf(refused.html)).toContain(REQUIRED);
    expect((await staff.get('/profile/two-factor')).status).toBe(200);
  });
});
