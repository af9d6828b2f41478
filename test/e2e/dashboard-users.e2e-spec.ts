import { DataSource } from 'typeorm';
import { base32Decode, totpAt } from '../../src/users/two-factor/totp';
import { TwoFactorService } from '../../src/users/two-factor/two-factor.service';
import { accountWithOwner, emailFor, PASSWORD, signedIn, userWith } from '../support/dashboard';
import { PageClient, textOf } from '../support/page-client';
import { runCli } from '../support/run-cli';
import { linkIn, SmtpPeer } from '../support/smtp-peer';
import { startTestApp, TestApp } from '../support/test-app';

describe('Account users: the CLI, invitations and the one-owner rule', () => {
  let t: TestApp;
  const smtp = new SmtpPeer();
  const saved = { SMTP_URL: process.env.SMTP_URL, DASHBOARD_URL: process.env.DASHBOARD_URL };

  beforeAll(async () => {
    await smtp.start();
    // The CLI runs as its own process with this environment.
    process.env.SMTP_URL = smtp.url;
    process.env.DASHBOARD_URL = 'https://dash.example.com.au';
    t = await startTestApp();
  });
  afterAll(async () => {
    await t.close();
    await smtp.stop();
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  });

  const owners = async (accountId: number) =>
    (await t.app.get(DataSource).query(`SELECT email FROM users WHERE account_id = $1 AND is_owner ORDER BY email`, [accountId])).map((r: { email: string }) => r.email);

  describe('operator CLI', () => {
    it('account:create --owner-email makes the owner, emails a 24-hour single-use link and prints it', async () => {
      const email = emailFor('cli-owner');
      const res = await runCli('account:create', '--name', 'Harbour Bakery', '--owner-email', email.toUpperCase());
      expect(res.code).toBe(0);
      expect(res.json.owner).toEqual({
        user_id: expect.any(Number),
        account_id: res.json.account_id,
        email,
        owner: true,
        permissions: [],
        set_password_link: expect.stringMatching(/^https:\/\/dash\.example\.com\.au\/set-password\/[A-Za-z0-9_-]{43}$/),
      });
      const mail = await smtp.mailTo(email, /^You have been invited to Harbour Bakery on SMS Platform$/);
      expect(linkIn(mail)).toBe(res.json.owner.set_password_link);
      expect(mail.text).toContain('the link works once, for 24 hours');

      const browser = new PageClient(t.app);
      const path = new URL(res.json.owner.set_password_link).pathname;
      await browser.get(path);
      expect((await browser.post(path, { password: PASSWORD, confirmation: PASSWORD })).status).toBe(303);
      const owner = await signedIn(t.app, email);
      expect((await owner.get('/users')).status).toBe(200);
      expect(await owners(res.json.account_id)).toEqual([email]);
    });

    it('user:create adds a user with permissions; their link is emailed and printed', async () => {
      const acct = await accountWithOwner(t.app);
      const email = emailFor('cli-user');
      const res = await runCli('user:create', '--account', String(acct.accountId), '--email', email, '--permission', 'manage_billing', '--permission', 'manage_api_keys');
      expect(res.code).toBe(0);
      expect(res.json).toMatchObject({ account_id: acct.accountId, email, owner: false, permissions: ['manage_api_keys', 'manage_billing'] });
      expect(linkIn(await smtp.mailTo(email, /invited/))).toBe(res.json.set_password_link);
    });

    it.each([
      [['user:create', '--account', '1', '--email', 'not-an-email'], '--email must be an email address', 2],
      [
        ['user:create', '--account', '1', '--email', 'a@b.example', '--owner', '--permission', 'manage_billing'],
        '--permission does not apply with --owner (the owner can do everything)',
        2,
      ],
      [['user:create', '--email', 'a@b.example'], '--account is required', 2],
      [['user:create', '--account', '99999999', '--email', 'a@b.example'], 'Account 99999999 not found', 1],
      [['account:create', '--name', 'X', '--owner-email', 'nope'], '--owner-email must be an email address', 2],
    ])('fails clearly for %j', async (args, message, code) => {
      const res = await runCli(...(args as string[]));
      expect([res.code, res.stdout]).toEqual([code, '']);
      expect(res.stderr).toContain(message);
    });

    it('refuses a second owner, a first user who is not the owner, a taken email and an unknown permission', async () => {
      const acct = await accountWithOwner(t.app);
      const second = await runCli('user:create', '--account', String(acct.accountId), '--email', emailFor('second'), '--owner');
      expect([second.code, second.stderr.trim()]).toEqual([1, `error: Account ${acct.accountId} already has an owner`]);
      const bare = await runCli('account:create', '--name', 'No owner yet');
      const first = await runCli('user:create', '--account', String(bare.json.account_id), '--email', emailFor('first'));
      expect(first.stderr.trim()).toBe(`error: Account ${bare.json.account_id} has no owner yet; create the owner first with --owner`);
      const taken = await runCli('user:create', '--account', String(acct.accountId), '--email', acct.ownerEmail);
      expect(taken.stderr.trim()).toBe('error: A user with this email already exists');
      const unknown = await runCli('user:create', '--account', String(acct.accountId), '--email', emailFor('x'), '--permission', 'manage_everything');
      expect(unknown.stderr.trim()).toBe(
        'error: Unknown permission manage_everything. Valid values: manage_api_keys, manage_billing, manage_senders, manage_settings, send_messages, manage_contacts, read_inbox',
      );
      expect(await owners(acct.accountId)).toEqual([acct.ownerEmail]);
    });

    it('makes exactly one owner when two operators race', async () => {
      const bare = await runCli('account:create', '--name', 'Race');
      const results = await Promise.all([1, 2, 3].map((i) => runCli('user:create', '--account', String(bare.json.account_id), '--email', emailFor(`racer${i}`), '--owner')));
      expect(results.filter((r) => r.code === 0)).toHaveLength(1);
      expect(await owners(bare.json.account_id)).toHaveLength(1);
    });
  });

  describe('the owner in the dashboard', () => {
    it('invites a user, who sets a password from the email and signs in with the permissions given', async () => {
      const acct = await accountWithOwner(t.app);
      const owner = await signedIn(t.app, acct.ownerEmail);
      await owner.get('/users');
      const email = emailFor('invitee');
      const res = await owner.post('/users', { email, name: 'Pat Invitee', permission: ['manage_settings'] });
      expect(res.location).toBe('/users?notice=invited');
      expect(textOf((await owner.get(res.location!)).html)).toContain(`Invitation sent. Users Email Name Can Two-factor Actions ${acct.ownerEmail} (you) Owner (everything) Off`);
      const path = new URL(linkIn(await smtp.mailTo(email, /invited/))).pathname;
      const browser = new PageClient(t.app);
      await browser.get(path);
      await browser.post(path, { password: PASSWORD, confirmation: PASSWORD });
      const pat = await signedIn(t.app, email);
      expect((await pat.get('/settings/webhooks')).status).toBe(200);
      expect((await pat.get('/settings/api')).status).toBe(403);
    });

    it('says what everyone sees whatever their permissions, what a settings manager manages, and how far a key manager reaches', async () => {
      const acct = await accountWithOwner(t.app);
      const owner = await signedIn(t.app, acct.ownerEmail);
      const viewer = await userWith(t.app, acct.accountId, []);
      const page = textOf((await owner.get('/users')).html);
      expect(page).toContain(`${viewer} Viewing only (Overview, Campaigns, Reports and Messages)`);
      expect(page).toContain('Everyone can see the Overview, Campaigns, Reports and Messages pages, and download what they export.');
      expect(page).toContain('Manage settings (webhooks, time zone, quiet hours)');
      expect(page).toContain('Whoever can manage API keys can make a key with any scopes');
      const [{ id }] = await t.app.get(DataSource).query(`SELECT id FROM users WHERE email = $1`, [viewer]);
      expect(textOf((await owner.get(`/users/${id}`)).html)).toContain(`Besides the Overview, Campaigns, Reports and Messages pages, ${viewer} can`);
    });

    it.each([
      [{ email: 'nope' }, 400, 'Enter a valid email address'],
      [{ email: 'OWNER' }, 409, 'A user with this email already exists'],
    ])('re-renders the invitation form for %j', async (fields, status, message) => {
      const acct = await accountWithOwner(t.app);
      const owner = await signedIn(t.app, acct.ownerEmail);
      await owner.get('/users');
      const res = await owner.post('/users', { email: fields.email === 'OWNER' ? acct.ownerEmail.toUpperCase() : fields.email });
      expect(res.status).toBe(status);
      expect(textOf(res.html)).toContain(message);
    });

    it('cannot remove the owner nor change their permissions (409 pages), whatever is posted', async () => {
      const acct = await accountWithOwner(t.app);
      const owner = await signedIn(t.app, acct.ownerEmail);
      const ownerId = (await t.app.get(DataSource).query(`SELECT id FROM users WHERE email = $1`, [acct.ownerEmail]))[0].id;
      await owner.get('/users');
      const removal = await owner.post(`/users/${ownerId}/remove`);
      expect(removal.status).toBe(409);
      expect(textOf(removal.html)).toContain('The owner cannot be removed; transfer ownership to another user first');
      const perms = await owner.post(`/users/${ownerId}/permissions`, { permission: 'manage_billing' });
      expect(perms.status).toBe(409);
      expect(textOf(perms.html)).toContain('The owner can do everything; their permissions cannot be changed');
      expect(await owners(acct.accountId)).toEqual([acct.ownerEmail]);
    });

    it("cannot turn off the owner's own two-factor sign-in from the users page: only with a code, on the profile", async () => {
      const acct = await accountWithOwner(t.app);
      const db = t.app.get(DataSource);
      const ownerId = (await db.query(`SELECT id FROM users WHERE email = $1`, [acct.ownerEmail]))[0].id;
      const owner = await signedIn(t.app, acct.ownerEmail);
      const twoFactor = t.app.get(TwoFactorService);
      const actor = { userId: ownerId, accountId: acct.accountId, email: acct.ownerEmail, isOwner: true, permissions: [], ip: '' };
      await twoFactor.confirmEnrolment(actor, totpAt(base32Decode((await twoFactor.enrolment(actor)).secret), new Date()));
      // The owner's row has no edit link and their page offers no reset; a posted form (a stolen session) is refused too.
      const page = await owner.get(`/users/${ownerId}`);
      expect(page.status).toBe(200);
      expect(textOf(page.html)).not.toContain('Reset two-factor sign-in');
      const res = await owner.post(`/users/${ownerId}/reset-two-factor`, {});
      expect(res.status).toBe(409);
      expect(textOf(res.html)).toContain('Turn off your own two-factor sign-in on Your profile, with a code');
      expect(await twoFactor.isEnabled(ownerId)).toBe(true);
      expect(await db.query(`SELECT action FROM audit_log WHERE account_id = $1 AND action = 'two_factor.reset'`, [acct.accountId])).toEqual([]);
    });

    it('transfers ownership: one owner before and after, the old owner keeps every permission but not the users page', async () => {
      const acct = await accountWithOwner(t.app);
      const heir = await userWith(t.app, acct.accountId, []);
      const heirId = (await t.app.get(DataSource).query(`SELECT id FROM users WHERE email = $1`, [heir]))[0].id;
      const owner = await signedIn(t.app, acct.ownerEmail);
      await owner.get(`/users/${heirId}/transfer-ownership`);
      const res = await owner.post(`/users/${heirId}/transfer-ownership`);
      expect(res.location).toBe('/overview?notice=ownership_transferred');
      expect(await owners(acct.accountId)).toEqual([heir]);
      expect((await owner.get('/users')).status).toBe(403);
      expect((await owner.get('/settings/api')).status).toBe(200);
      expect((await owner.get('/settings/webhooks')).status).toBe(200);
      const heirBrowser = await signedIn(t.app, heir);
      expect((await heirBrowser.get('/users')).status).toBe(200);
      expect(textOf((await heirBrowser.get('/audit')).html)).toContain(`${acct.ownerEmail} Transferred ownership ${acct.ownerEmail} → ${heir}`);
    });

    it('transfers only to a user who has set a password', async () => {
      const acct = await accountWithOwner(t.app);
      const pending = emailFor('pending');
      await runCli('user:create', '--account', String(acct.accountId), '--email', pending);
      const pendingId = (await t.app.get(DataSource).query(`SELECT id FROM users WHERE email = $1`, [pending]))[0].id;
      const owner = await signedIn(t.app, acct.ownerEmail);
      await owner.get(`/users/${pendingId}`);
      const res = await owner.post(`/users/${pendingId}/transfer-ownership`);
      expect(res.status).toBe(409);
      expect(textOf(res.html)).toContain('Ownership can only go to a user who has set a password');
      expect(await owners(acct.accountId)).toEqual([acct.ownerEmail]);
    });

    it('removing a user signs them out at once', async () => {
      const acct = await accountWithOwner(t.app);
      const leaver = await userWith(t.app, acct.accountId, ['manage_api_keys']);
      const leaverId = (await t.app.get(DataSource).query(`SELECT id FROM users WHERE email = $1`, [leaver]))[0].id;
      const theirBrowser = await signedIn(t.app, leaver);
      const owner = await signedIn(t.app, acct.ownerEmail);
      await owner.get(`/users/${leaverId}/remove`);
      expect((await owner.post(`/users/${leaverId}/remove`)).location).toBe('/users?notice=user_removed');
      expect((await theirBrowser.get('/overview')).status).toBe(303);
    });

    it("cannot see or touch another account's users", async () => {
      const mine = await accountWithOwner(t.app);
      const theirs = await accountWithOwner(t.app);
      const theirUser = await userWith(t.app, theirs.accountId, []);
      const theirId = (await t.app.get(DataSource).query(`SELECT id FROM users WHERE email = $1`, [theirUser]))[0].id;
      const owner = await signedIn(t.app, mine.ownerEmail);
      expect((await owner.get(`/users/${theirId}`)).status).toBe(404);
      await owner.get('/users');
      expect((await owner.post(`/users/${theirId}/remove`)).status).toBe(404);
      expect((await owner.get('/users')).html).not.toContain(theirUser);
    });
  });
});
