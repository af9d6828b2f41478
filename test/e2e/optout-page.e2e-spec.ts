import { DataSource } from 'typeorm';
import { PageClient, textOf } from '../support/page-client';
import { createAccount, startTestApp, TestAccount, TestApp } from '../support/test-app';

const BASE = 'https://sms.test';
const tomorrow = () => new Date(Date.now() + 86_400_000).toISOString().slice(0, 19);
let ipCounter = 0;
const freshIp = () => `198.51.100.${++ipCounter}`;

describe('The opt-out page behind {optout}: GET/POST /o/{code}', () => {
  let t: TestApp;
  let acct: TestAccount;
  let db: DataSource;

  beforeAll(async () => {
    t = await startTestApp({ appRole: 'api', shortLinkBase: BASE, optoutAttemptsPerIp: 5, optoutMissesPerIp: 3 });
    db = t.app.get(DataSource);
  });
  beforeEach(async () => {
    acct = await createAccount(t.app, { credits: 100, senders: ['Brand', '61400000001'] });
    // The account's inbound webhook is on, so the opt-out's `unsubscribe` event is made.
    await db.query(`UPDATE accounts SET webhook_inbound_url = 'https://hooks.example/inbound' WHERE id = $1`, [acct.accountId]);
  });
  afterAll(() => t.close());

  const send = async (messages: Array<Record<string, unknown>>, a = acct) => (await t.api.post('/v1/messages', { auth: a.auth, body: { messages } })).body;
  const optoutPath = (message: string) => /https:\/\/sms\.test(\/o\/[0-9A-Za-z]+)$/.exec(message)![1];
  const accountPath = async (a = acct) => `/o/${(await db.query(`SELECT optout_code FROM accounts WHERE id = $1`, [a.accountId]))[0].optout_code}`;
  const unsubscribes = async (a = acct) => (await t.api.get('/v1/unsubscribes', { auth: a.auth })).body.results;
  const inboundEvents = async (a = acct) =>
    (await db.query(`SELECT body FROM webhook_events WHERE account_id = $1 AND kind = 'inbound' ORDER BY id`, [a.accountId])).map((e: { body: string }) => JSON.parse(e.body));

  it('renders {optout} for an alphanumeric sender as a per-recipient link no longer than the account link, and Reply Stop for a number', async () => {
    const body = await send([
      { to: '0412000001', sender: 'Brand', message: 'Sale{optout}' },
      { to: '0412000001', sender: '61400000001', message: 'Sale{optout}' },
    ]);
    expect(body.results[0].message).toMatch(/^Sale OptOut https:\/\/sms\.test\/o\/[0-9A-Za-z]{7}$/);
    expect(body.results[0].message.length).toBeLessThanOrEqual(`Sale OptOut ${BASE}${await accountPath()}`.length);
    expect(body.results[1].message).toBe('Sale Opt out: Reply Stop');
  });

  it('per-recipient link: one tap and a confirmation unsubscribe the number with every effect of STOP', async () => {
    const list_id = (await t.api.post('/v1/lists', { auth: acct.auth, body: { name: 'Members' } })).body.list_id;
    await t.api.post('/v1/list-contacts', { auth: acct.auth, body: { list_id, number: '0412000002' } });
    const first = await send([{ to: '0412000002', sender: 'Brand', message: 'Hello{optout}', custom_ref: 'promo-1' }]);
    const later = await send([{ to: '0412000002', sender: 'Brand', message: 'a'.repeat(200), scheduled_for: tomorrow() }]);
    const balance = (await t.api.get('/v1/account', { auth: acct.auth })).body.credit_balance;

    const browser = new PageClient(t.app, { remoteAddress: freshIp() });
    const page = await browser.get(optoutPath(first.results[0].message));
    expect(page.status).toBe(200);
    expect(textOf(page.html)).toContain('your mobile number ending in 002');
    expect(page.html).not.toContain('name="number"');
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");

    const done = await browser.post(optoutPath(first.results[0].message));
    expect(done.status).toBe(200);
    expect(textOf(done.html)).toContain('You are unsubscribed');

    expect(await unsubscribes()).toEqual([{ number: '61412000002', source: 'link', unsubscribed_at: expect.any(String) }]);
    expect((await t.api.get('/v1/list-contacts', { auth: acct.auth, query: { list_id } })).body.total).toBe(0);
    // As for STOP: messages not yet sent to the number (the scheduled one, and the first, still pending
    // with no dispatcher running here) are cancelled and refunded.
    for (const sent of [first, later]) {
      expect((await t.api.get('/v1/messages', { auth: acct.auth, query: { message_id: sent.results[0].message_id } })).body.results[0].status).toBe('cancelled');
    }
    expect((await t.api.get('/v1/account', { auth: acct.auth })).body.credit_balance).toBe(balance + 3);
    expect(await inboundEvents()).toEqual([
      {
        to: 'Brand',
        sender: '61412000002',
        message: '',
        received_at: expect.any(String),
        type: 'unsubscribe',
        original_message_id: first.results[0].message_id,
        original_custom_ref: 'promo-1',
      },
    ]);
    expect(t.api.webhookProblem('inboundMessage', (await inboundEvents())[0])).toBeNull();

    // The next send to the number is blocked; a second confirmation changes nothing and tells nobody again.
    const next = await send([{ to: '0412000002', sender: 'Brand', message: 'Again' }]);
    expect(next.results[0]).toMatchObject({ status: 'blocked', error: 'Recipient has unsubscribed' });
    expect((await browser.post(optoutPath(first.results[0].message))).status).toBe(200);
    expect(await inboundEvents()).toHaveLength(1);
  });

  it('account link: asks for the number, explains a bad one beside the form, and answers any valid number the same', async () => {
    const browser = new PageClient(t.app, { remoteAddress: freshIp() });
    const path = await accountPath();
    const page = await browser.get(path);
    expect(page.status).toBe(200);
    expect(page.html).toContain('name="number"');

    const bad = await browser.post(path, { number: '02 9876 5432' });
    expect(bad.status).toBe(400);
    expect(textOf(bad.html)).toContain('Enter an Australian mobile number, such as 0412 345 678');
    expect(await unsubscribes()).toEqual([]);

    await send([{ to: '0412000003', sender: 'Brand', message: 'Hi' }]);
    const recipient = await browser.post(path, { number: '0412 000 003' });
    const stranger = await browser.post(path, { number: '0412 999 999' });
    expect([recipient.status, stranger.status]).toEqual([200, 200]);
    expect(textOf(recipient.html)).toBe(textOf(stranger.html));
    expect((await unsubscribes()).map((u: { number: string; source: string }) => [u.number, u.source]).sort()).toEqual([
      ['61412000003', 'link'],
      ['61412999999', 'link'],
    ]);
  });

  it('refuses a post without the CSRF token (403 page) and changes nothing', async () => {
    const browser = new PageClient(t.app, { remoteAddress: freshIp() });
    const path = await accountPath();
    await browser.get(path);
    const forged = await browser.post(path, { number: '0412000004', _csrf: 'forged' });
    expect(forged.status).toBe(403);
    expect(textOf(forged.html)).toContain('This form has expired');
    const stranger = new PageClient(t.app, { remoteAddress: freshIp() });
    expect((await stranger.post(path, { number: '0412000004' })).status).toBe(403);
    expect(await unsubscribes()).toEqual([]);
  });

  it('limits submissions per IP address (429 beside the form), other addresses unaffected', async () => {
    const ip = freshIp();
    const browser = new PageClient(t.app, { remoteAddress: ip });
    const path = await accountPath();
    await browser.get(path);
    for (let i = 0; i < 5; i++) expect((await browser.post(path, { number: 'nope' })).status).toBe(400);
    const limited = await browser.post(path, { number: '0412000005' });
    expect(limited.status).toBe(429);
    expect(textOf(limited.html)).toContain('Too many attempts from this connection');
    expect(await unsubscribes()).toEqual([]);
    const other = new PageClient(t.app, { remoteAddress: freshIp() });
    await other.get(path);
    expect((await other.post(path, { number: '0412000005' })).status).toBe(200);
  });

  it('refuses every opt-out page (429) to an address that asked for too many unknown codes, valid ones included; other addresses unaffected', async () => {
    const path = await accountPath();
    const guesser = new PageClient(t.app, { remoteAddress: freshIp() });
    expect((await guesser.get(path)).status).toBe(200);
    for (const guess of ['zzzzzz1', 'zzzzzz2', 'zzzzzz3']) expect((await guesser.get(`/o/${guess}`)).status).toBe(404);
    const refused = await guesser.get(path);
    expect(refused.status).toBe(429);
    expect(textOf(refused.html)).toContain('Too many attempts from this connection');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(1);
    const [{ name }] = await db.query(`SELECT name FROM accounts WHERE id = $1`, [acct.accountId]);
    expect(textOf(refused.html)).not.toContain(name);
    expect((await new PageClient(t.app, { remoteAddress: freshIp() }).get(path)).status).toBe(200);
    // Guessing by submitting (with a token from any page) counts and is refused the same way.
    const poster = new PageClient(t.app, { remoteAddress: freshIp() });
    await poster.get(path);
    for (const guess of ['zzzzzz4', 'zzzzzz5', 'zzzzzz6']) expect((await poster.post(`/o/${guess}`, { number: '0412000009' })).status).toBe(404);
    expect((await poster.post(path, { number: '0412000009' })).status).toBe(429);
    expect(await unsubscribes()).toEqual([]);
  });

  it('a per-recipient link past retention still opts out, asking for the number', async () => {
    const body = await send([{ to: '0412000006', sender: 'Brand', message: 'Old{optout}' }]);
    const path = optoutPath(body.results[0].message);
    await db.query(`UPDATE short_links SET created_at = now() - interval '200 days' WHERE code = $1`, [path.slice(3)]);
    const browser = new PageClient(t.app, { remoteAddress: freshIp() });
    const page = await browser.get(path);
    expect(page.html).toContain('name="number"');
    expect((await browser.post(path, { number: '0412000006' })).status).toBe(200);
    expect((await unsubscribes()).map((u: { number: string }) => u.number)).toEqual(['61412000006']);
  });

  it('answers unknown codes with a 404 page, or the envelope when JSON is asked for; a short link code is not an opt-out code', async () => {
    const browser = new PageClient(t.app, { remoteAddress: freshIp() });
    const unknown = await browser.get('/o/NoSuchCode');
    expect(unknown.status).toBe(404);
    // The recipient's page offers no way into the business's dashboard; the dashboard's own 404 page does.
    expect(unknown.html).toContain('This link is not valid, or it has expired.');
    expect(unknown.html).not.toContain('Go to the overview');
    const dashboard404 = await browser.get('/no-such-page');
    expect([dashboard404.status, dashboard404.html]).toEqual([404, expect.stringContaining('Go to the overview')]);
    const body = await t.api.post('/v1/messages', {
      auth: acct.auth,
      body: { shorten_urls: true, messages: [{ to: '0412000007', sender: 'Brand', message: 'https://a.example' }] },
    });
    const shortCode = /sms\.test\/(\w{7})/.exec(body.body.results[0].message)![1];
    expect((await browser.get(`/o/${shortCode}`)).status).toBe(404);
    const api = await t.app.inject({ method: 'GET', url: '/o/NoSuchCode', headers: { accept: 'application/json' } });
    expect([api.statusCode, api.json()]).toEqual([404, { error: 'Not found' }]);
  });

  it('keeps each account to its own list: another account’s link never touches this one', async () => {
    const other = await createAccount(t.app, { credits: 10, senders: ['Other'] });
    await db.query(`UPDATE accounts SET webhook_inbound_url = 'https://hooks.example/inbound' WHERE id = $1`, [other.accountId]);
    const browser = new PageClient(t.app, { remoteAddress: freshIp() });
    const path = await accountPath(other);
    await browser.get(path);
    await browser.post(path, { number: '0412000008' });
    expect(await unsubscribes()).toEqual([]);
    expect((await unsubscribes(other)).map((u: { number: string }) => u.number)).toEqual(['61412000008']);
    expect((await inboundEvents(other))[0]).toMatchObject({ to: '', sender: '61412000008', message: '', original_message_id: '' });
  });
});
