import { BackgroundTasks } from '../../src/common/background/background-tasks';
import { Clock } from '../../src/common/time/clock';
import { UsersService } from '../../src/users/users.service';
import { UserLinksService } from '../../src/users/user-links.service';
import { accountWithOwner, emailFor, PASSWORD, signedIn } from '../support/dashboard';
import { PageClient, textOf } from '../support/page-client';
import { SmtpPeer, linkIn } from '../support/smtp-peer';
import { startTestApp, TestApp } from '../support/test-app';

const HOUR = 3_600_000;

describe('Dashboard sign-in, sessions and password links', () => {
  let t: TestApp;
  const smtp = new SmtpPeer();
  let clock: Clock;
  let now: Date | undefined;
  let ip = 0;
  /** A fresh client address per test, so the per-address throttle of one test never touches another. */
  const nextIp = () => `10.11.0.${++ip}`;

  beforeAll(async () => {
    await smtp.start();
    t = await startTestApp({ smtpUrl: smtp.url, mailFrom: 'SMS Platform <no-reply@example.com.au>', dashboardUrl: 'https://dash.example.com.au' });
    clock = t.app.get(Clock);
    const real = clock.now.bind(clock);
    jest.spyOn(clock, 'now').mockImplementation(() => (now ? new Date(now) : real()));
  });
  afterAll(async () => {
    await t.close();
    await smtp.stop();
  });
  afterEach(() => {
    now = undefined;
  });
  const advance = (ms: number) => {
    now = new Date((now ?? new Date()).getTime() + ms);
  };

  describe('signing in', () => {
    it('signs in with the right password: an opaque HttpOnly SameSite=Lax session cookie, then the page asked for', async () => {
      const acct = await accountWithOwner(t.app);
      const browser = new PageClient(t.app, { remoteAddress: nextIp() });
      const first = await browser.get('/messages?status=failed');
      expect(first.status).toBe(303);
      expect(first.location).toBe('/sign-in?next=%2Fmessages%3Fstatus%3Dfailed');
      await browser.get(first.location!);
      const res = await browser.post('/sign-in', { email: acct.ownerEmail.toUpperCase(), password: PASSWORD, next: '/messages?status=failed' });
      expect(res.status).toBe(303);
      expect(res.location).toBe('/messages?status=failed');
      expect(String(res.headers['set-cookie'])).toMatch(/^sid=[A-Za-z0-9_-]{43}; Max-Age=604800; Path=\/; HttpOnly; SameSite=Lax$/);
      expect((await browser.get('/messages?status=failed')).status).toBe(200);
    });

    it('never sends the browser to another site after signing in', async () => {
      const acct = await accountWithOwner(t.app);
      const browser = new PageClient(t.app, { remoteAddress: nextIp() });
      await browser.get('/sign-in');
      const res = await browser.post('/sign-in', { email: acct.ownerEmail, password: PASSWORD, next: '//evil.example/' });
      expect(res.location).toBe('/overview');
    });

    it('never sends the browser to another site when next hides control characters the URL parser strips', async () => {
      const acct = await accountWithOwner(t.app);
      const page = await new PageClient(t.app, { remoteAddress: nextIp() }).get('/sign-in?next=%2F%09%2Fevil.example');
      expect(page.status).toBe(200);
      expect(page.html).not.toContain('evil.example');
      for (const next of ['/\t/evil.example', '/\n/evil.example', '/ /evil.example', '/..//evil.example']) {
        const browser = new PageClient(t.app, { remoteAddress: nextIp() });
        await browser.get('/sign-in');
        const res = await browser.post('/sign-in', { email: acct.ownerEmail, password: PASSWORD, next });
        expect([res.status, res.location]).toEqual([303, '/overview']);
      }
    });

    it('gives the same answer for an unknown email, a wrong password and a user who has not set one', async () => {
      const acct = await accountWithOwner(t.app);
      const invited = emailFor('invited');
      await t.app.get(UsersService).createByOperator(acct.accountId, { email: invited });
      const answers = [];
      for (const [email, password] of [
        ['nobody@example.com.au', PASSWORD],
        [acct.ownerEmail, 'wrong password!!'],
        [invited, PASSWORD],
      ]) {
        const browser = new PageClient(t.app, { remoteAddress: nextIp() });
        await browser.get('/sign-in');
        const res = await browser.post('/sign-in', { email, password });
        answers.push([res.status, textOf(res.html).match(/Email or password is incorrect/)?.[0], String(res.headers['set-cookie'] ?? '').includes('sid=')]);
      }
      expect(answers).toEqual([
        [401, 'Email or password is incorrect', false],
        [401, 'Email or password is incorrect', false],
        [401, 'Email or password is incorrect', false],
      ]);
    });

    it('makes one email from one address wait after 5 failures, longer with each further failure, with Retry-After on the 429', async () => {
      const acct = await accountWithOwner(t.app);
      now = new Date();
      const browser = new PageClient(t.app, { remoteAddress: nextIp() });
      await browser.get('/sign-in');
      for (let i = 0; i < 5; i++) expect((await browser.post('/sign-in', { email: acct.ownerEmail, password: `wrong ${i} password` })).status).toBe(401);
      const refused = await browser.post('/sign-in', { email: acct.ownerEmail, password: PASSWORD });
      expect([refused.status, refused.headers['retry-after']]).toEqual([429, '30']);
      expect(textOf(refused.html)).toContain('Too many failed sign-ins. Try again in 30 seconds.');
      advance(31_000);
      expect((await browser.post('/sign-in', { email: acct.ownerEmail, password: 'wrong again password' })).status).toBe(401);
      const longer = await browser.post('/sign-in', { email: acct.ownerEmail, password: PASSWORD });
      expect([longer.status, longer.headers['retry-after']]).toEqual([429, '60']);
      expect(textOf(longer.html)).toContain('Too many failed sign-ins. Try again in 1 minute.');
      advance(61_000);
      expect((await browser.post('/sign-in', { email: acct.ownerEmail, password: PASSWORD })).status).toBe(303);
    });

    it('never locks the real user out: failures from other addresses leave their own sign-in alone, and a burst emails them once', async () => {
      const acct = await accountWithOwner(t.app);
      for (let i = 0; i < 12; i++) {
        const attacker = new PageClient(t.app, { remoteAddress: nextIp() });
        await attacker.get('/sign-in');
        expect((await attacker.post('/sign-in', { email: acct.ownerEmail, password: `guess ${i} password` })).status).toBe(401);
      }
      const mail = await smtp.mailTo(acct.ownerEmail, /^Failed sign-ins to your SMS Platform account$/);
      expect(mail.text).toContain('There were 10 failed attempts to sign in as this email address in the last 15 minutes.');
      expect(smtp.received.filter((m) => m.to.includes(acct.ownerEmail) && /Failed sign-ins/.test(m.subject))).toHaveLength(1);
      await signedIn(t.app, acct.ownerEmail, PASSWORD, nextIp());
    });

    it('lets people behind one shared address sign in after a few failures there for other emails', async () => {
      const acct = await accountWithOwner(t.app);
      const address = nextIp();
      const browser = new PageClient(t.app, { remoteAddress: address });
      await browser.get('/sign-in');
      for (let i = 0; i < 8; i++) expect((await browser.post('/sign-in', { email: `guess${i}@example.com.au`, password: PASSWORD })).status).toBe(401);
      expect((await browser.post('/sign-in', { email: acct.ownerEmail, password: PASSWORD })).status).toBe(303);
    });

    it('refuses a sign-in form without its CSRF token', async () => {
      const acct = await accountWithOwner(t.app);
      const browser = new PageClient(t.app, { remoteAddress: nextIp() });
      await browser.get('/sign-in');
      const res = await browser.post('/sign-in', { email: acct.ownerEmail, password: PASSWORD, _csrf: '' });
      expect(res.status).toBe(403);
      expect(res.headers['set-cookie']?.toString() ?? '').not.toContain('sid=');
    });
  });

  describe('sessions', () => {
    it('end after 12 hours without a request', async () => {
      const acct = await accountWithOwner(t.app);
      now = new Date();
      const browser = await signedIn(t.app, acct.ownerEmail, PASSWORD, nextIp());
      advance(12 * HOUR - 60_000);
      expect((await browser.get('/overview')).status).toBe(200);
      advance(12 * HOUR - 60_000);
      expect((await browser.get('/overview')).status).toBe(200);
      advance(12 * HOUR);
      const res = await browser.get('/overview');
      expect(res.status).toBe(303);
      expect(res.location).toBe('/sign-in?next=%2Foverview');
    });

    it('end 7 days after sign-in however active', async () => {
      const acct = await accountWithOwner(t.app);
      now = new Date();
      const browser = await signedIn(t.app, acct.ownerEmail, PASSWORD, nextIp());
      // A request every 11 hours keeps it from idling out: 15 of them make 165 hours.
      for (let step = 1; step <= 15; step++) {
        advance(11 * HOUR);
        expect((await browser.get('/overview')).status).toBe(200);
      }
      advance(3 * HOUR - 1000);
      expect((await browser.get('/overview')).status).toBe(200);
      advance(2000);
      expect((await browser.get('/overview')).status).toBe(303);
    });

    it('sign-out ends the session on the server (the old cookie no longer works)', async () => {
      const acct = await accountWithOwner(t.app);
      const browser = await signedIn(t.app, acct.ownerEmail, PASSWORD, nextIp());
      const cookie = browser.cookies.get('sid')!;
      const out = await browser.post('/sign-out');
      expect(out.status).toBe(303);
      expect(out.location).toBe('/sign-in?notice=signed_out');
      expect(String(out.headers['set-cookie'])).toMatch(/^sid=; Max-Age=0; Path=\/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; SameSite=Lax$/);
      const replay = await t.app.inject({ method: 'GET', url: '/overview', headers: { cookie: `sid=${cookie}`, accept: 'text/html' } });
      expect(replay.statusCode).toBe(303);
    });

    it('a password change ends every other session of the user, and keeps this one', async () => {
      const acct = await accountWithOwner(t.app);
      const laptop = await signedIn(t.app, acct.ownerEmail, PASSWORD, nextIp());
      const phone = await signedIn(t.app, acct.ownerEmail, PASSWORD, nextIp());
      const res = await laptop.post('/profile/password', { current: PASSWORD, password: 'a brand new passphrase', confirmation: 'a brand new passphrase' });
      expect(res.status).toBe(303);
      expect(res.location).toBe('/profile?notice=password_changed');
      expect((await laptop.get('/overview')).status).toBe(200);
      expect((await phone.get('/overview')).status).toBe(303);
      const again = new PageClient(t.app, { remoteAddress: nextIp() });
      await again.get('/sign-in');
      expect((await again.post('/sign-in', { email: acct.ownerEmail, password: 'a brand new passphrase' })).status).toBe(303);
    });

    it.each([
      [
        'the current password is wrong',
        { current: 'not my password', password: 'a brand new passphrase', confirmation: 'a brand new passphrase' },
        'Your current password is not correct',
      ],
      ['the new one is short', { current: PASSWORD, password: 'short', confirmation: 'short' }, 'Passwords must be at least 12 characters'],
      ['the two differ', { current: PASSWORD, password: 'a brand new passphrase', confirmation: 'a brand new passphrasf' }, 'The two passwords do not match'],
    ])('refuses a password change when %s (400, nothing changed)', async (_, fields, message) => {
      const acct = await accountWithOwner(t.app);
      const browser = await signedIn(t.app, acct.ownerEmail, PASSWORD, nextIp());
      const res = await browser.post('/profile/password', fields);
      expect(res.status).toBe(400);
      expect(textOf(res.html)).toContain(message);
      await signedIn(t.app, acct.ownerEmail, PASSWORD, nextIp());
    });
  });

  describe('password reset by email', () => {
    it('emails a single-use link that sets a new password and ends every session', async () => {
      const acct = await accountWithOwner(t.app);
      const before = await signedIn(t.app, acct.ownerEmail, PASSWORD, nextIp());
      const browser = new PageClient(t.app, { remoteAddress: nextIp() });
      await browser.get('/forgot-password');
      const asked = await browser.post('/forgot-password', { email: acct.ownerEmail });
      expect(asked.status).toBe(200);
      expect(textOf(asked.html)).toContain(`If ${acct.ownerEmail} belongs to a user, we have emailed a link`);
      const mail = await smtp.mailTo(acct.ownerEmail, /^Reset your SMS Platform password$/);
      expect(mail.from).toBe('no-reply@example.com.au');
      const link = linkIn(mail);
      expect(link.startsWith('https://dash.example.com.au/set-password/')).toBe(true);
      const path = new URL(link).pathname;

      const form = await browser.get(path);
      expect(form.status).toBe(200);
      expect(textOf(form.html)).toContain(`Choose a new password as ${acct.ownerEmail}`);
      const set = await browser.post(path, { password: 'my reset passphrase', confirmation: 'my reset passphrase' });
      expect(set.status).toBe(303);
      expect(set.location).toBe('/sign-in?notice=password_set');
      expect((await before.get('/overview')).status).toBe(303);
      await signedIn(t.app, acct.ownerEmail, 'my reset passphrase', nextIp());

      const reused = await browser.get(path);
      expect(reused.status).toBe(400);
      expect(textOf(reused.html)).toContain('This link is invalid, already used or expired. Ask for a new one.');
      const reposted = await browser.post(path, { password: 'another passphrase!', confirmation: 'another passphrase!' });
      expect(reposted.status).toBe(400);
    });

    it('gives the same answer for an unknown email and sends nothing', async () => {
      const browser = new PageClient(t.app, { remoteAddress: nextIp() });
      await browser.get('/forgot-password');
      const res = await browser.post('/forgot-password', { email: 'nobody-here@example.com.au' });
      expect(res.status).toBe(200);
      expect(textOf(res.html)).toContain('If nobody-here@example.com.au belongs to a user, we have emailed a link');
      await t.app.get(BackgroundTasks).idle();
      expect(smtp.mailsTo('nobody-here@example.com.au')).toEqual([]);
    });

    it('expires a reset link after one hour', async () => {
      const acct = await accountWithOwner(t.app);
      now = new Date();
      await t.app.get(UserLinksService).requestReset(acct.ownerEmail);
      const path = new URL(linkIn(await smtp.mailTo(acct.ownerEmail, /Reset your/))).pathname;
      const browser = new PageClient(t.app, { remoteAddress: nextIp() });
      advance(HOUR - 1000);
      expect((await browser.get(path)).status).toBe(200);
      advance(2000);
      expect((await browser.get(path)).status).toBe(400);
      expect((await browser.post(path, { password: 'my reset passphrase', confirmation: 'my reset passphrase' })).status).toBe(400);
    });

    it('expires an invitation link after 24 hours', async () => {
      const acct = await accountWithOwner(t.app);
      now = new Date();
      const invited = emailFor('late');
      const { link } = await t.app.get(UsersService).createByOperator(acct.accountId, { email: invited });
      const path = new URL(link).pathname;
      const browser = new PageClient(t.app, { remoteAddress: nextIp() });
      advance(24 * HOUR - 1000);
      const form = await browser.get(path);
      expect(textOf(form.html)).toContain(`Welcome. Choose the password you will sign in with as ${invited}`);
      advance(2000);
      expect((await browser.get(path)).status).toBe(400);
    });

    it('refuses a short password or two that differ, and leaves the link usable', async () => {
      const acct = await accountWithOwner(t.app);
      const { link } = await t.app.get(UsersService).createByOperator(acct.accountId, { email: emailFor('picky') });
      const path = new URL(link).pathname;
      const browser = new PageClient(t.app, { remoteAddress: nextIp() });
      await browser.get(path);
      const short = await browser.post(path, { password: 'elevenchars', confirmation: 'elevenchars' });
      expect(short.status).toBe(400);
      expect(textOf(short.html)).toContain('Passwords must be at least 12 characters');
      const differ = await browser.post(path, { password: 'twelve chars!', confirmation: 'twelve chars?' });
      expect(textOf(differ.html)).toContain('The two passwords do not match');
      expect((await browser.post(path, { password: 'twelve chars!', confirmation: 'twelve chars!' })).status).toBe(303);
    });
  });
});
