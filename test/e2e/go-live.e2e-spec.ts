import { DataSource } from 'typeorm';
import { accountWithOwner, DashboardAccount, PASSWORD, signedIn, userWith } from '../support/dashboard';
import { PageClient, textOf } from '../support/page-client';
import { runCli, runCliWithEnv } from '../support/run-cli';
import { SmtpPeer } from '../support/smtp-peer';
import { startTestApp, TestApp } from '../support/test-app';

// Each CLI call is a process of its own; a few in a row on a loaded machine take more than the default 30 s.
jest.setTimeout(180_000);

const ABN = '51 824 753 556';
let ip = 0;
const nextIp = () => `10.30.7.${++ip}`;

describe('Going live: the Go live page and the operator decision', () => {
  let t: TestApp;
  let db: DataSource;
  const smtp = new SmtpPeer();
  const mailEnv = () => ({ SMTP_URL: smtp.url, DASHBOARD_URL: 'https://dash.example.com.au' });

  beforeAll(async () => {
    await smtp.start();
    t = await startTestApp({ smtpUrl: smtp.url, dashboardUrl: 'https://dash.example.com.au' });
    db = t.app.get(DataSource);
  });
  afterAll(async () => {
    await t.close();
    await smtp.stop();
  });

  /** A signed-up-like test account: the Sandbox sender, an owner signed in. */
  async function testAccount(): Promise<{ acct: DashboardAccount; browser: PageClient }> {
    const acct = await accountWithOwner(t.app, { test: true, senders: ['Sandbox'], name: 'Harbour Bakery' });
    const browser = await signedIn(t.app, acct.ownerEmail, PASSWORD, nextIp());
    await browser.get('/go-live');
    return { acct, browser };
  }
  const form = (overrides: Record<string, string> = {}) => ({
    business_name: 'Harbour Bakery Pty Ltd',
    abn: ABN,
    website: 'harbourbakery.example.com.au',
    intended_use: 'Order-ready texts to customers who ordered online, about 2000 a month',
    ...overrides,
  });
  const requestsOf = (accountId: number) =>
    db.query(`SELECT id, state, abn, website, decline_reason, starting_credits::int AS starting FROM live_requests WHERE account_id = $1 ORDER BY id`, [accountId]);
  const auditOf = async (accountId: number) =>
    (await db.query(`SELECT action, actor AS actor_email, detail FROM audit_log WHERE account_id = $1 AND action LIKE 'account.live%' ORDER BY id`, [accountId])) as Array<{
      action: string;
      actor_email: string;
      detail: string;
    }>;
  const send = (acct: DashboardAccount, sender: string) =>
    t.api.post('/v1/messages', { auth: acct.auth, body: { messages: [{ to: '0412345678', message: 'Fresh bread at 7', sender }] } });

  it('takes the request on the page, shows it waiting and refuses a second one while it waits', async () => {
    const { acct, browser } = await testAccount();
    expect(textOf((await browser.get('/overview')).html)).toContain('Ready to send to real phones? Go live');
    const page = await browser.get('/go-live');
    expect(page.status).toBe(200);
    expect(textOf(page.html)).toContain('Ask for a live account');

    const sent = await browser.post('/go-live', form());
    expect([sent.status, sent.location]).toEqual([303, '/go-live?notice=live_requested']);
    const shown = textOf((await browser.get(sent.location!)).html);
    expect(shown).toContain('Request sent. We review it and email you the answer; this page shows where it stands.');
    expect(shown).toContain('Waiting for review Sent');
    expect(shown).toContain('51 824 753 556');
    expect(shown).not.toContain('Request a live account'); // no form while it waits
    expect(await requestsOf(acct.accountId)).toEqual([
      { id: expect.any(Number), state: 'pending', abn: '51824753556', website: 'https://harbourbakery.example.com.au', decline_reason: null, starting: null },
    ]);

    const again = await browser.post('/go-live', form());
    expect(again.status).toBe(409);
    expect(textOf(again.html)).toContain('Your request for a live account is already waiting for review');
    expect(await requestsOf(acct.accountId)).toHaveLength(1);

    // Two at once (two tabs): one request.
    const other = await testAccount();
    const both = await Promise.all([other.browser.post('/go-live', form()), other.browser.post('/go-live', form())]);
    expect(both.map((r) => r.status).sort()).toEqual([303, 409]);
    expect(await requestsOf(other.acct.accountId)).toHaveLength(1);

    expect(await auditOf(acct.accountId)).toEqual([
      { action: 'account.live_requested', actor_email: acct.ownerEmail, detail: expect.stringMatching(/^request \d+: Harbour Bakery Pty Ltd, ABN 51824753556$/) },
    ]);
  });

  it.each([
    [{ business_name: '  ' }, 'Enter the legal name of your business'],
    [{ abn: '' }, 'Enter your ABN'],
    [{ abn: '51 824 753 557' }, 'That is not a valid ABN: its check digits do not match. Check it and try again.'],
    [{ abn: '5182475355' }, 'An ABN is 11 digits, such as 51 824 753 556'],
    [{ abn: '51-824-753-556' }, 'An ABN is 11 digits, such as 51 824 753 556'],
    [{ website: 'not a website' }, 'Enter your website as an address such as https://www.example.com.au, or leave it empty'],
    [{ intended_use: '' }, 'Say what you will send, to whom, and about how many messages a month'],
    [{ intended_use: 'x'.repeat(1001) }, 'The intended use must be at most 1000 characters'],
  ])('re-renders the form with %j: %s, keeping what was typed and writing nothing', async (fields, message) => {
    const { acct, browser } = await testAccount();
    const res = await browser.post('/go-live', form(fields));
    expect(res.status).toBe(400);
    expect(textOf(res.html)).toContain(message);
    if (!('intended_use' in fields)) expect(res.html).toContain('Order-ready texts');
    expect(await requestsOf(acct.accountId)).toEqual([]);
    expect(await auditOf(acct.accountId)).toEqual([]);
  });

  it('tells a live account it is live, with no form, and refuses a request from it', async () => {
    const acct = await accountWithOwner(t.app, { senders: ['Harbour'] });
    const browser = await signedIn(t.app, acct.ownerEmail, PASSWORD, nextIp());
    const page = textOf((await browser.get('/go-live')).html);
    expect(page).toContain('This account is live');
    expect(page).not.toContain('Request a live account');
    expect(textOf((await browser.get('/overview')).html)).not.toContain('Go live');
    const res = await browser.post('/go-live', form());
    expect(res.status).toBe(409);
    expect(textOf(res.html)).toContain('This account is already live');
    expect(await requestsOf(acct.accountId)).toEqual([]);
  });

  it('is the owner’s alone: a user holding every permission is refused the page and the form', async () => {
    const { acct } = await testAccount();
    const everything = await userWith(t.app, acct.accountId, [
      'manage_api_keys',
      'manage_billing',
      'manage_senders',
      'manage_settings',
      'send_messages',
      'manage_contacts',
      'read_inbox',
    ]);
    const browser = await signedIn(t.app, everything, PASSWORD, nextIp());
    expect(textOf((await browser.get('/overview')).html)).not.toContain('Go live');
    const page = await browser.get('/go-live');
    expect(page.status).toBe(403);
    expect(textOf(page.html)).toContain('Only the account owner can do this');
    expect((await browser.post('/go-live', form())).status).toBe(403);
    expect(await requestsOf(acct.accountId)).toEqual([]);
  });

  it('account:review lists it; account:approve makes the account live with the same key, no sandbox sender and the starting credit through the ledger, and emails the owner', async () => {
    const { acct, browser } = await testAccount();
    expect((await send(acct, 'Sandbox')).status).toBe(200);
    await browser.post('/go-live', form());
    const [{ id }] = await requestsOf(acct.accountId);

    const review = await runCli('account:review', '--list');
    expect(review.code).toBe(0);
    expect(review.json.state).toBe('pending');
    expect(review.json.requests.find((r: { request_id: number }) => r.request_id === id)).toEqual({
      request_id: id,
      account_id: acct.accountId,
      account_name: 'Harbour Bakery',
      owner_email: acct.ownerEmail,
      business_name: 'Harbour Bakery Pty Ltd',
      abn: '51824753556',
      website: 'https://harbourbakery.example.com.au',
      intended_use: 'Order-ready texts to customers who ordered online, about 2000 a month',
      state: 'pending',
      decline_reason: null,
      starting_credits: null,
      submitted_at: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
      decided_at: null,
    });

    const approved = await runCliWithEnv(mailEnv(), 'account:approve', '--id', String(id), '--starting-credits', '50');
    expect([approved.code, approved.stderr]).toEqual([0, '']);
    expect(approved.json).toMatchObject({ request_id: id, state: 'approved', starting_credits: 50, test: false, emailed: acct.ownerEmail });

    // Same key, now live: the balance holds the grant, the sandbox sender is gone, a sender needs registration.
    const account = await t.api.get('/v1/account', { auth: acct.auth });
    expect(account.body).toMatchObject({ test_account: false, credit_balance: 50 });
    const sandbox = await send(acct, 'Sandbox');
    expect(sandbox.status).toBe(403);
    expect(sandbox.body).toEqual({ error: 'No allowed senders found for this user' });
    expect(await db.query(`SELECT kind, amount::int, reason, reference FROM credit_ledger WHERE account_id = $1`, [acct.accountId])).toEqual([
      { kind: 'grant', amount: 5000, reason: 'starting credit (went live)', reference: `live-request:${id}` },
    ]);
    const verify = await runCli('ledger:verify', '--account', String(acct.accountId));
    expect([verify.code, verify.json.ok]).toEqual([0, true]);

    const mail = await smtp.mailTo(acct.ownerEmail, /is live/);
    expect(mail.subject).toBe('Harbour Bakery is live');
    expect(mail.text).toContain(`Your request for a live account (request ${id}) is approved`);
    expect(mail.text).toContain('We added 50.00 free credits to start with.');
    expect(mail.text).toContain('https://dash.example.com.au/senders');

    const page = textOf((await browser.get('/go-live')).html);
    expect(page).toContain('This account is live');
    expect(page).toContain('Approved');
    expect(page).toContain('Starting credit: 50.00 credits.');
    expect(await auditOf(acct.accountId)).toEqual([
      expect.objectContaining({ action: 'account.live_requested' }),
      { action: 'account.live_approved', actor_email: 'operator (CLI)', detail: `request ${id}, starting credit 50.00` },
    ]);
    expect(textOf((await browser.get('/audit')).html)).toContain('Live account approved');

    const twice = await runCli('account:approve', '--id', String(id));
    expect([twice.code, twice.stdout]).toEqual([1, '']);
    expect(twice.stderr).toBe(`error: Live account request ${id} is already approved\n`);
  });

  it('grants LIVE_STARTING_CREDITS when the operator gives no --starting-credits, and nothing by default', async () => {
    const first = await testAccount();
    await first.browser.post('/go-live', form());
    const [a] = await requestsOf(first.acct.accountId);
    expect((await runCliWithEnv({ LIVE_STARTING_CREDITS: '25' }, 'account:approve', '--id', String(a.id))).json).toMatchObject({ starting_credits: 25 });
    expect((await t.api.get('/v1/account', { auth: first.acct.auth })).body.credit_balance).toBe(25);

    const second = await testAccount();
    await second.browser.post('/go-live', form());
    const [b] = await requestsOf(second.acct.accountId);
    expect((await runCli('account:approve', '--id', String(b.id))).json).toMatchObject({ starting_credits: 0, test: false });
    expect(await db.query(`SELECT count(*)::int AS n FROM credit_ledger WHERE account_id = $1`, [second.acct.accountId])).toEqual([{ n: 0 }]);
    expect((await auditOf(second.acct.accountId))[1].detail).toBe(`request ${b.id}`);
  });

  it('account:decline keeps the test account, emails the reason and the page shows it with the form to ask again', async () => {
    const { acct, browser } = await testAccount();
    await browser.post('/go-live', form());
    const [{ id }] = await requestsOf(acct.accountId);
    const declined = await runCliWithEnv(mailEnv(), 'account:decline', '--id', String(id), '--reason', '  The ABN belongs to   another business ');
    expect(declined.code).toBe(0);
    expect(declined.json).toMatchObject({ request_id: id, state: 'declined', decline_reason: 'The ABN belongs to another business', test: true, emailed: acct.ownerEmail });
    expect((await t.api.get('/v1/account', { auth: acct.auth })).body.test_account).toBe(true);

    const mail = await smtp.mailTo(acct.ownerEmail, /live account not approved/);
    expect(mail.text).toContain('Reason: The ABN belongs to another business');
    expect(mail.text).toContain('https://dash.example.com.au/go-live');

    const page = await browser.get('/go-live');
    expect(textOf(page.html)).toContain('Declined');
    expect(textOf(page.html)).toContain('Reason: The ABN belongs to another business');
    expect(textOf(page.html)).toContain('Ask again');
    expect(page.html).toContain('value="51 824 753 556"');
    expect(await auditOf(acct.accountId)).toEqual([
      expect.objectContaining({ action: 'account.live_requested' }),
      { action: 'account.live_declined', actor_email: 'operator (CLI)', detail: `request ${id}: The ABN belongs to another business` },
    ]);
    // Asked again, it waits again; the declined one cannot be approved.
    expect((await browser.post('/go-live', form())).status).toBe(303);
    const late = await runCli('account:approve', '--id', String(id));
    expect(late.stderr).toBe(`error: Live account request ${id} is already declined\n`);
  });

  it.each([
    [['account:review'], 'exactly one of --list or --id is required', 2],
    [['account:review', '--list', '--id', '1'], 'exactly one of --list or --id is required', 2],
    [['account:review', '--list', '--state', 'maybe'], '--state must be one of pending, approved, declined', 2],
    [['account:review', '--id', '99999999'], 'Live account request 99999999 not found', 1],
    [['account:approve', '--id', '99999999'], 'Live account request 99999999 not found', 1],
    [['account:approve', '--id', '1', '--starting-credits', '-5'], '--starting-credits must be a non-negative number with at most two decimals', 2],
    [['account:decline', '--id', '1'], '--reason is required', 2],
    [['account:decline', '--id', '99999999', '--reason', 'x'.repeat(501)], '--reason must be at most 500 characters', 2],
    [['account:approve'], '--id is required', 2],
  ])('fails clearly for %j', async (args, message, code) => {
    const res = await runCli(...(args as string[]));
    expect([res.code, res.stdout]).toEqual([code, '']);
    expect(res.stderr).toContain(message);
  });

  it('documents each command in --help', async () => {
    for (const [name, usage] of [
      ['account:review', 'account:review [--list] [--state STATE] [--id ID]'],
      ['account:approve', 'account:approve --id ID [--starting-credits CREDITS]'],
      ['account:decline', 'account:decline --id ID --reason TEXT'],
    ]) {
      const help = await runCli(name, '--help');
      expect([help.code, help.stderr]).toEqual([0, '']);
      expect(help.stdout).toContain(`usage: npm run -s cli -- ${usage}`);
    }
  });
});
