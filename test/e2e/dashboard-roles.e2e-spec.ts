import { ApiKeysService } from '../../src/accounts/api-keys.service';
import { AuditLogService } from '../../src/users/audit-log.service';
import { WebhookSettingsService } from '../../src/webhooks/webhook-settings.service';
import { accountWithOwner, DashboardAccount, signedIn, userWith } from '../support/dashboard';
import { PageClient, textOf } from '../support/page-client';
import { SmtpPeer } from '../support/smtp-peer';
import { startTestApp, TestApp } from '../support/test-app';
import { until } from '../support/wait';

type Role = 'owner' | 'manage_api_keys' | 'manage_billing' | 'manage_settings' | 'manage_senders' | 'none';
const ROLES: Role[] = ['owner', 'manage_api_keys', 'manage_billing', 'manage_settings', 'manage_senders', 'none'];

/** The role matrix: every dashboard action, as each kind of user, through the real pages and forms. */
describe('Dashboard permissions', () => {
  let t: TestApp;
  const smtp = new SmtpPeer();
  let acct: DashboardAccount;
  const as = {} as Record<Role, PageClient>;
  const emails = {} as Record<Role, string>;

  beforeAll(async () => {
    await smtp.start();
    t = await startTestApp({ smtpUrl: smtp.url, webhookAllowPrivate: true });
    acct = await accountWithOwner(t.app);
    emails.owner = acct.ownerEmail;
    for (const role of ROLES.slice(1)) emails[role] = await userWith(t.app, acct.accountId, role === 'none' ? [] : [role]);
    for (const role of ROLES) as[role] = await signedIn(t.app, emails[role], undefined, `10.12.0.${ROLES.indexOf(role) + 1}`);
  });
  afterAll(async () => {
    await t.close();
    await smtp.stop();
  });

  const keys = () => t.app.get(ApiKeysService);
  const keyNamed = async (label: string) => (await keys().listActive(acct.accountId)).find((k) => k.label === label)!;
  async function freshKey(label: string, purchases = false, limitDollars = 500) {
    const issued = await keys().issue(acct.accountId, label);
    await keys().setPurchases(issued.username, purchases, limitDollars * 100);
    return keyNamed(label);
  }
  /** GETs the form's page first, as a browser would, so the post carries a fresh token. */
  async function submit(role: Role, page: string, action: string, fields: Record<string, string | string[]> = {}) {
    await as[role].get(page);
    return as[role].post(action, fields);
  }

  it.each([
    ['/overview', ROLES],
    ['/messages', ROLES],
    ['/profile', ROLES],
    ['/settings/api', ['owner', 'manage_api_keys', 'manage_billing']],
    ['/settings/webhooks', ['owner', 'manage_settings']],
    ['/settings/quiet-hours', ['owner', 'manage_settings']],
    ['/senders', ['owner', 'manage_senders']],
    ['/billing', ['owner', 'manage_billing']],
    ['/users', ['owner']],
    ['/settings/security', ['owner']],
    ['/audit', ['owner']],
  ] as Array<[string, Role[]]>)('opens %s only for %j; others get a 403 page', async (path, allowed) => {
    for (const role of ROLES) {
      const res = await as[role].get(path);
      expect([role, res.status]).toEqual([role, allowed.includes(role) ? 200 : 403]);
      if (!allowed.includes(role)) expect(textOf(res.html)).toMatch(/You do not have permission to do this|Only the account owner can do this/);
    }
  });

  it('shows each person only the navigation links they may follow', async () => {
    const links = async (role: Role) => [...(await as[role].get('/overview')).html.matchAll(/<li><a href="([^"]+)"/g)].map((m) => m[1]);
    expect(await links('owner')).toEqual([
      '/overview',
      '/send',
      '/campaigns',
      '/reports',
      '/contacts',
      '/messages',
      '/keywords',
      '/inbox',
      '/settings/api',
      '/settings/webhooks',
      '/settings/time-zone',
      '/settings/quiet-hours',
      '/settings/security',
      '/senders',
      '/billing',
      '/users',
      '/audit',
    ]);
    expect(await links('manage_api_keys')).toEqual(['/overview', '/campaigns', '/reports', '/messages', '/settings/api']);
    expect(await links('manage_billing')).toEqual(['/overview', '/campaigns', '/reports', '/messages', '/settings/api', '/billing']);
    expect(await links('manage_settings')).toEqual(['/overview', '/campaigns', '/reports', '/messages', '/settings/webhooks', '/settings/time-zone', '/settings/quiet-hours']);
    expect(await links('manage_senders')).toEqual(['/overview', '/campaigns', '/reports', '/messages', '/senders']);
    expect(await links('none')).toEqual(['/overview', '/campaigns', '/reports', '/messages']);
  });

  describe('API keys', () => {
    // An account holds at most 10 active keys: each test starts from none.
    beforeEach(async () => {
      for (const key of await keys().listActive(acct.accountId)) await keys().revoke(key.username);
    });

    it.each(ROLES.map((role) => [role, role === 'owner' || role === 'manage_api_keys']))('create as %s: allowed %s', async (role, allowed) => {
      const label = `created by ${role}`;
      const res = await submit(role as Role, '/overview', '/settings/api/keys', { label });
      expect(res.status).toBe(allowed ? 200 : 403);
      expect(Boolean(await keyNamed(label))).toBe(allowed);
      if (allowed) expect(textOf(res.html)).toContain('This is the only time the password is shown.');
    });

    it('refuses an eleventh active key with the API’s text, and says so on the page', async () => {
      for (let i = 0; i < 10; i++) await keys().issue(acct.accountId, `full ${i}`);
      expect(textOf((await as.owner.get('/settings/api')).html)).toContain('This account has 10 active keys, the most it may hold. Revoke one to create another.');
      const res = await as.owner.post('/settings/api/keys', { label: 'one too many' });
      expect(res.status).toBe(409);
      expect(textOf(res.html)).toContain('An account may hold at most 10 API keys');
      expect(await keyNamed('one too many')).toBeUndefined();
    });

    it('hides the create and revoke controls from a billing manager', async () => {
      const page = (await as.manage_billing.get('/settings/api')).html;
      expect(page).not.toContain('action="/settings/api/keys"');
      expect(page).not.toContain('/revoke"');
      const keysPage = (await as.manage_api_keys.get('/settings/api')).html;
      expect(keysPage).toContain('action="/settings/api/keys"');
    });

    it.each(ROLES.map((role) => [role, role === 'owner' || role === 'manage_api_keys']))('revoke as %s: allowed %s', async (role, allowed) => {
      const key = await freshKey(`to revoke by ${role}`);
      const res = await submit(role as Role, '/overview', `/settings/api/keys/${key.id}/revoke`);
      expect(res.status).toBe(allowed ? 303 : 403);
      expect(Boolean(await keyNamed(key.label))).toBe(!allowed);
    });

    it('refuses to revoke or change a key of another account (404 page)', async () => {
      const other = await accountWithOwner(t.app);
      const theirs = (await keys().listActive(other.accountId))[0];
      expect((await submit('owner', '/settings/api', `/settings/api/keys/${theirs.id}/revoke`)).status).toBe(404);
      expect((await submit('owner', '/settings/api', `/settings/api/keys/${theirs.id}/purchases`, { purchases: 'on' })).status).toBe(404);
      expect((await keys().listActive(other.accountId)).map((k) => k.purchasesEnabled)).toEqual([false]);
    });

    // Interface, Authentication 7: billing enables and raises; API-key managers disable and lower.
    const PURCHASE_CASES: Array<[string, { from: [boolean, number]; to: Record<string, string>; expected: [boolean, number] }, Role[]]> = [
      ['enable purchases', { from: [false, 500], to: { purchases: 'on' }, expected: [true, 500] }, ['owner', 'manage_billing']],
      ['disable purchases', { from: [true, 500], to: { purchases: 'off' }, expected: [false, 500] }, ['owner', 'manage_billing', 'manage_api_keys']],
      ['raise the daily limit', { from: [true, 500], to: { purchases: 'on', daily_limit: '750.50' }, expected: [true, 750.5] }, ['owner', 'manage_billing']],
      ['lower the daily limit', { from: [true, 500], to: { purchases: 'on', daily_limit: '120' }, expected: [true, 120] }, ['owner', 'manage_billing', 'manage_api_keys']],
    ];
    for (const [what, { from, to, expected }, allowed] of PURCHASE_CASES) {
      it.each(ROLES)(`${what} as %s`, async (role) => {
        const key = await freshKey(`${what} by ${role}`, from[0], from[1]);
        const res = await submit(role, '/overview', `/settings/api/keys/${key.id}/purchases`, to);
        const after = await keyNamed(key.label);
        if (allowed.includes(role)) {
          expect(res.status).toBe(303);
          expect([after.purchasesEnabled, after.dailyLimitCents / 100]).toEqual(expected);
        } else {
          expect(res.status).toBe(403);
          expect([after.purchasesEnabled, after.dailyLimitCents]).toEqual([from[0], from[1] * 100]);
          if (role === 'manage_api_keys') {
            expect(textOf(res.html)).toContain(
              what.startsWith('enable') ? 'Only users who can manage billing can enable purchases' : 'Only users who can manage billing can raise a daily limit',
            );
          }
        }
      });
    }

    it('shows an API-key manager the switch only for a key that is on, and the billing manager both ways', async () => {
      const off = await freshKey('shown off', false);
      const on = await freshKey('shown on', true);
      const keysPage = (await as.manage_api_keys.get('/settings/api')).html;
      expect(keysPage).not.toContain(`id="purchases-${off.id}"`);
      expect(keysPage).toContain(`id="purchases-${on.id}"`);
      const billingPage = (await as.manage_billing.get('/settings/api')).html;
      expect(billingPage).toContain(`id="purchases-${off.id}"`);
    });

    it('emails the owner when purchases are enabled and when a limit is raised, and not when they are switched off or lowered', async () => {
      const key = await freshKey('mail watch', false, 500);
      const action = `/settings/api/keys/${key.id}/purchases`;
      expect((await submit('manage_billing', '/settings/api', action, { purchases: 'on' })).status).toBe(303);
      const enabled = await smtp.mailTo(acct.ownerEmail, /^Purchases enabled for API key mail watch$/);
      expect(enabled.text).toContain(`Purchases were enabled for the API key "mail watch" (${key.username})`);
      expect(enabled.text).toContain(`by ${emails.manage_billing}`);
      expect(enabled.text).toContain('up to A$500.00 (inc. GST) in any 24 hours');

      expect((await submit('manage_billing', '/settings/api', action, { purchases: 'on', daily_limit: '900' })).status).toBe(303);
      const raised = await smtp.mailTo(acct.ownerEmail, /^Daily limit raised for API key mail watch$/);
      expect(raised.text).toContain('was raised from A$500.00 to A$900.00 (inc. GST)');

      expect((await submit('manage_api_keys', '/settings/api', action, { purchases: 'on', daily_limit: '100' })).status).toBe(303);
      expect((await submit('manage_api_keys', '/settings/api', action, { purchases: 'off' })).status).toBe(303);
      // A mail sent after those would arrive after any they caused: the next enable is the marker.
      expect((await submit('owner', '/settings/api', action, { purchases: 'on' })).status).toBe(303);
      await until(() => smtp.mailsTo(acct.ownerEmail).filter((m) => m.subject === 'Purchases enabled for API key mail watch').length === 2, 'the second enable mail');
      expect(
        smtp
          .mailsTo(acct.ownerEmail)
          .map((m) => m.subject)
          .filter((s) => s.endsWith('mail watch')),
      ).toEqual(['Purchases enabled for API key mail watch', 'Daily limit raised for API key mail watch', 'Purchases enabled for API key mail watch']);
    });

    it('refuses a daily limit that is not an amount, keeping the key as it was', async () => {
      const key = await freshKey('bad limit', true, 500);
      for (const text of ['lots', '-5', '1.234', '1000000.01']) {
        const res = await submit('owner', '/settings/api', `/settings/api/keys/${key.id}/purchases`, { purchases: 'on', daily_limit: text });
        expect([text, res.status]).toEqual([text, 400]);
        expect(textOf(res.html)).toContain('The daily limit must be an amount in dollars, such as 500 or 250.50, up to 1000000');
      }
      expect((await keyNamed('bad limit')).dailyLimitCents).toBe(50000);
    });
  });

  describe('webhooks, users and the audit log', () => {
    it.each(ROLES.map((role) => [role, role === 'owner' || role === 'manage_settings']))('changes webhook URLs as %s: allowed %s', async (role, allowed) => {
      const url = `https://hooks.example.com.au/${role}`;
      const res = await submit(role as Role, '/overview', '/settings/webhooks', { status: url, inbound: '' });
      expect(res.status).toBe(allowed ? 303 : 403);
      const current = (await t.app.get(WebhookSettingsService).get(acct.accountId)).webhooks.status;
      if (allowed) expect(current).toBe(url);
      else expect(current).not.toBe(url);
    });

    it.each(ROLES.map((role) => [role, role === 'owner' || role === 'manage_settings']))('rotates the signing secret as %s: allowed %s', async (role, allowed) => {
      const res = await submit(role as Role, '/overview', '/settings/webhooks/signing-secret');
      expect(res.status).toBe(allowed ? 200 : 403);
      if (allowed) expect(textOf(res.html)).toMatch(/whsec_[A-Za-z0-9_-]{32}/);
    });

    it.each(ROLES.map((role) => [role, role === 'owner']))('invites a user as %s: allowed %s', async (role, allowed) => {
      const email = `invitee.${role}.${process.pid}@example.com.au`;
      const res = await submit(role as Role, '/overview', '/users', { email, permission: ['manage_billing'] });
      expect(res.status).toBe(allowed ? 303 : 403);
      if (allowed) expect((await smtp.mailTo(email, /invited/)).text).toContain('/set-password/');
      else expect(smtp.mailsTo(email)).toEqual([]);
    });

    it('lets only the owner change permissions, remove users and transfer ownership', async () => {
      const target = await userWith(t.app, acct.accountId, []);
      const id = await findUserId(target);
      for (const role of ROLES.slice(1)) {
        expect((await submit(role, '/overview', `/users/${id}/permissions`, { permission: 'manage_billing' })).status).toBe(403);
        expect((await submit(role, '/overview', `/users/${id}/remove`)).status).toBe(403);
        expect((await submit(role, '/overview', `/users/${id}/transfer-ownership`)).status).toBe(403);
      }
      expect((await submit('owner', '/users', `/users/${id}/permissions`, { permission: ['manage_billing', 'manage_senders'] })).status).toBe(303);
      expect((await as.owner.get('/users')).html).toContain('Manage billing, Manage sender IDs');
      expect((await submit('owner', '/users', `/users/${id}/remove`)).status).toBe(303);
      expect((await as.owner.get('/users')).html).not.toContain(target);
    });

    it('records every action in the audit log with who, what, when and from where', async () => {
      const key = await freshKey('audited', false, 500);
      await submit('manage_billing', '/settings/api', `/settings/api/keys/${key.id}/purchases`, { purchases: 'on', daily_limit: '600' });
      const rows = (await t.app.get(AuditLogService).page(acct.accountId, { limit: 5, offset: 0 })).rows;
      expect(rows.slice(0, 2).map((r) => [r.actor, r.action, r.detail, r.ip])).toEqual([
        [emails.manage_billing, 'api_key.daily_limit_raised', `audited (${key.username}): $500.00 → $600.00`, '10.12.0.3'],
        [emails.manage_billing, 'api_key.purchases_enabled', `audited (${key.username})`, '10.12.0.3'],
      ]);
      const page = textOf((await as.owner.get('/audit')).html);
      expect(page).toContain(`${emails.manage_billing} Raised daily limit audited (${key.username}): $500.00 → $600.00 10.12.0.3`);
    });
  });

  async function findUserId(email: string): Promise<number> {
    const html = (await as.owner.get('/users')).html;
    const match = new RegExp(`href="/users/(\\d+)" aria-label="Edit ${email.replace(/\./g, '\\.')}"`).exec(html);
    if (!match) throw new Error(`no edit link for ${email}`);
    return Number(match[1]);
  }
});
