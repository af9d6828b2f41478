import { DataSource } from 'typeorm';
import { Clock } from '../../src/common/time/clock';
import { emailFor, PASSWORD, signedIn } from '../support/dashboard';
import { PageClient, textOf } from '../support/page-client';
import { ReceivedMail, SmtpPeer } from '../support/smtp-peer';
import { startTestApp, TestApp } from '../support/test-app';
import { until } from '../support/wait';

const HOUR = 3_600_000;

function verifyLinkIn(mail: ReceivedMail): string {
  const match = /https?:\/\/\S+(\/sign-up\/verify\/[A-Za-z0-9_-]+)/.exec(mail.text);
  if (!match) throw new Error(`no sign-up link in: ${mail.text}`);
  return match[1];
}

describe('Sign-up: the public page, the emailed link and the test account', () => {
  let t: TestApp;
  const smtp = new SmtpPeer();
  let now: Date | undefined;
  let ip = 0;
  /** A fresh client address per test, so the per-address throttle of one test never touches another. */
  const nextIp = () => `10.30.0.${++ip}`;

  beforeAll(async () => {
    await smtp.start();
    t = await startTestApp({ smtpUrl: smtp.url, dashboardUrl: 'https://dash.example.com.au' });
    const clock = t.app.get(Clock);
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

  const form = (email: string, overrides: Record<string, string> = {}) => ({
    name: 'Ada Baker',
    business_name: 'Harbour Bakery',
    email,
    password: PASSWORD,
    confirmation: PASSWORD,
    ...overrides,
  });

  async function signUp(email: string, address = nextIp(), overrides: Record<string, string> = {}) {
    const browser = new PageClient(t.app, { remoteAddress: address });
    await browser.get('/sign-up');
    const res = await browser.post('/sign-up', form(email, overrides));
    return { browser, res };
  }

  it('emails a single-use link; opening it and confirming opens a test account signed in as its owner, with no key and no credits', async () => {
    const email = emailFor('signup');
    const { browser, res } = await signUp(email.toUpperCase());
    expect(res.status).toBe(200);
    expect(textOf(res.html)).toContain(`We have emailed ${email} a link to confirm the address. Open it within 24 hours`);
    const mail = await smtp.mailTo(email, /Confirm your email/);
    expect(mail.text).toContain('"Harbour Bakery"');
    const link = verifyLinkIn(mail);
    expect(mail.text).toContain(`https://dash.example.com.au${link}`);

    // Opening the link (as a mail scanner would) changes nothing; the button does.
    const page = await browser.get(link);
    expect(page.status).toBe(200);
    expect(textOf(page.html)).toContain(`Confirm ${email} to open the test account of Harbour Bakery`);
    expect(await t.app.get(DataSource).query(`SELECT count(*)::int AS n FROM users WHERE email = $1`, [email])).toEqual([{ n: 0 }]);

    const confirmed = await browser.post(link);
    expect(confirmed.status).toBe(303);
    expect(confirmed.location).toBe('/overview?notice=signed_up');
    expect(String(confirmed.headers['set-cookie'])).toMatch(/^sid=[A-Za-z0-9_-]{43}; Max-Age=604800; Path=\/; HttpOnly; SameSite=Lax$/);
    const overview = await browser.get(confirmed.location!);
    expect(overview.status).toBe(200);
    const text = textOf(overview.html);
    expect(text).toContain('Your email is confirmed and your test account is open.');
    expect(text).toContain('Harbour Bakery Test account');
    expect(text).toContain('Create my first API key');

    const [row] = await t.app.get(DataSource).query(
      `SELECT a.is_test, a.credit_balance::int AS balance, u.is_owner, u.name, (SELECT count(*)::int FROM api_keys k WHERE k.account_id = a.id) AS keys,
              (SELECT array_agg(action ORDER BY id) FROM audit_log l WHERE l.account_id = a.id) AS actions
         FROM users u JOIN accounts a ON a.id = u.account_id WHERE u.email = $1`,
      [email],
    );
    expect(row).toEqual({ is_test: true, balance: 0, is_owner: true, name: 'Ada Baker', keys: 0, actions: ['account.signed_up'] });

    // The first key, from the overview's own form: its password shown once, then the offer is gone.
    const created = await browser.post('/settings/api/keys', { label: 'First key' });
    expect(created.status).toBe(200);
    expect(textOf(created.html)).toContain('First key');
    expect(textOf((await browser.get('/overview')).html)).not.toContain('Create my first API key');

    // The link works once; the password chosen at sign-up signs in.
    const again = await new PageClient(t.app, { remoteAddress: nextIp() }).get(link);
    expect(again.status).toBe(400);
    expect(textOf(again.html)).toContain('This link is invalid, already used or expired. Ask for a new one.');
    await signedIn(t.app, email, PASSWORD, nextIp());
  });

  it('answers an email that already signs in exactly as a new one, and mails its owner a note with no link that opens an account', async () => {
    const taken = emailFor('taken');
    const first = await signUp(taken);
    await first.browser.post(verifyLinkIn(await smtp.mailTo(taken, /Confirm your email/)));

    const fresh = emailFor('fresh');
    const answers = [];
    for (const email of [taken, fresh]) {
      const { res } = await signUp(email);
      answers.push([res.status, textOf(res.html).replace(email, 'EMAIL'), res.headers['set-cookie']?.toString().includes('sid=') ?? false]);
    }
    expect(answers[0]).toEqual(answers[1]);
    expect(answers[0][0]).toBe(200);

    await until(() => smtp.mailsTo(taken).length === 2 && smtp.mailsTo(fresh).length === 1, 'both mails');
    const note = smtp.mailsTo(taken)[1];
    expect(note.subject).toBe(smtp.mailsTo(fresh)[0].subject);
    expect(note.text).toContain('which already signs in to an account');
    expect(note.text).toContain('https://dash.example.com.au/sign-in');
    expect(note.text).not.toMatch(/sign-up\/verify/);
  });

  it('sends at most 3 mails an hour to one email, with the same answer after that', async () => {
    const email = emailFor('flood');
    now = new Date();
    for (let i = 0; i < 5; i++) {
      const { res } = await signUp(email);
      expect(res.status).toBe(200);
      expect(textOf(res.html)).toContain(`We have emailed ${email} a link`);
    }
    await until(() => smtp.mailsTo(email).length === 3, 'three mails');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(smtp.mailsTo(email)).toHaveLength(3);
    now = new Date(now.getTime() + HOUR + 1000);
    await signUp(email);
    await until(() => smtp.mailsTo(email).length === 4, 'a fourth mail an hour later');
  });

  it('makes one client address wait after 10 sign-ups in an hour, whatever the emails', async () => {
    const address = nextIp();
    now = new Date();
    for (let i = 0; i < 10; i++) expect((await signUp(emailFor('many'), address)).res.status).toBe(200);
    const { res } = await signUp(emailFor('many'), address);
    expect(res.status).toBe(429);
    expect(textOf(res.html)).toContain('Too many sign-ups from this connection. Try again in 60 minutes.');
    expect((await signUp(emailFor('elsewhere'), nextIp())).res.status).toBe(200);
    now = new Date(now.getTime() + HOUR);
    expect((await signUp(emailFor('many'), address)).res.status).toBe(200);
  });

  it('refuses a sign-up form without its CSRF token, and keeps nothing', async () => {
    const email = emailFor('csrf');
    const browser = new PageClient(t.app, { remoteAddress: nextIp() });
    await browser.get('/sign-up');
    const res = await browser.post('/sign-up', { ...form(email), _csrf: '' });
    expect(res.status).toBe(403);
    expect(await t.app.get(DataSource).query(`SELECT count(*)::int AS n FROM sign_ups WHERE email = $1`, [email])).toEqual([{ n: 0 }]);
  });

  it.each([
    [{ name: '' }, 'Enter your name'],
    [{ business_name: ' ' }, 'Enter the name of your business'],
    [{ business_name: 'x'.repeat(101) }, 'Business names must be at most 100 characters'],
    [{ email: 'not an email' }, 'Enter a valid email address'],
    [{ password: 'too short', confirmation: 'too short' }, 'Passwords must be at least 12 characters'],
    [{ confirmation: 'something else entirely' }, 'The two passwords do not match'],
  ])('re-renders the form with %j: %s, keeping what was typed but the passwords', async (fields, message) => {
    const { res } = await signUp(emailFor('typo'), nextIp(), fields);
    expect(res.status).toBe(400);
    expect(textOf(res.html)).toContain(message);
    expect(res.html).not.toContain(PASSWORD);
  });

  it('lets a link expire after 24 hours, and two confirmations of one link open one account', async () => {
    const email = emailFor('expiry');
    now = new Date();
    const { browser } = await signUp(email);
    const link = verifyLinkIn(await smtp.mailTo(email, /Confirm your email/));
    now = new Date(now.getTime() + 24 * HOUR + 1000);
    const late = await browser.post(link);
    expect(late.status).toBe(400);
    expect(textOf(late.html)).toContain('This link is invalid, already used or expired.');

    now = undefined;
    const email2 = emailFor('race');
    const second = await signUp(email2);
    const link2 = verifyLinkIn(await smtp.mailTo(email2, /Confirm your email/));
    const results = await Promise.all([second.browser.post(link2), second.browser.post(link2)]);
    expect(results.map((r) => r.status).sort()).toEqual([303, 400]);
    expect(await t.app.get(DataSource).query(`SELECT count(*)::int AS n FROM users WHERE email = $1`, [email2])).toEqual([{ n: 1 }]);
  });

  it('links the sign-in page to sign-up', async () => {
    const res = await new PageClient(t.app, { remoteAddress: nextIp() }).get('/sign-in');
    expect(res.html).toContain('href="/sign-up"');
  });
});

describe('Sign-up switched off (SIGNUP_ENABLED=false)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ signupEnabled: false });
  });
  afterAll(() => t.close());

  it('answers every sign-up page with a 404 page and the sign-in page offers none', async () => {
    const browser = new PageClient(t.app, { remoteAddress: '10.30.1.1' });
    const signIn = await browser.get('/sign-in');
    expect(signIn.html).not.toContain('href="/sign-up"');
    for (const res of [
      await browser.get('/sign-up'),
      await browser.post('/sign-up', { name: 'A', business_name: 'B', email: emailFor('off'), password: PASSWORD, confirmation: PASSWORD }),
      await browser.get('/sign-up/verify/abc'),
    ]) {
      expect(res.status).toBe(404);
      expect(textOf(res.html)).toContain('Sign-up is not open on this service. Ask its operator for an account.');
    }
  });
});
