import { DataSource } from 'typeorm';
import { accountWithOwner, DashboardAccount, signedIn, userWith } from '../support/dashboard';
import { runCli } from '../support/run-cli';
import { SmtpPeer } from '../support/smtp-peer';
import { createAccount, startTestApp, TestAccount, TestApp } from '../support/test-app';

const ABN = '51 824 753 556';

/** ACMA Sender ID registrations: the supplement's rules and texts, the operator's review with the CLI, one brand per business. */
describe('POST /v1/sender-registrations, GET /v1/sender-registrations and the registration:* commands', () => {
  let t: TestApp;
  let db: DataSource;
  const smtp = new SmtpPeer();
  const saved = { SMTP_URL: process.env.SMTP_URL, SYSTEM_SENDER: process.env.SYSTEM_SENDER };
  let brand = 0;
  /** A brand no other test uses (brands are unique across accounts). */
  const nextBrand = () => `Brand${process.pid % 1000}x${++brand}`.slice(0, 11);

  beforeAll(async () => {
    await smtp.start();
    // The CLI runs as its own process with this environment.
    process.env.SMTP_URL = smtp.url;
    process.env.SYSTEM_SENDER = 'SMSVerify';
    t = await startTestApp({ smtpUrl: smtp.url, systemSender: 'SMSVerify' });
    db = t.app.get(DataSource);
  });
  afterAll(async () => {
    await t.close();
    await smtp.stop();
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  });

  const submit = (acct: TestAccount, body: Record<string, unknown>) =>
    t.api.post('/v1/sender-registrations', { auth: acct.auth, body: { business_name: 'Harbour Bakery Pty Ltd', abn: ABN, reason: 'Order notices', ...body } });
  const list = (acct: TestAccount, query?: Record<string, string | number>) => t.api.get('/v1/sender-registrations', { auth: acct.auth, query });
  const senders = async (acct: TestAccount) =>
    (await t.api.get('/v1/senders', { auth: acct.auth })).body.results.map((s: { sender: string; type: string }) => `${s.sender}:${s.type}`);

  it.each([
    ['sender is required', { sender: undefined }],
    ['sender must be a string', { sender: ['MyBrand'] }],
    ['sender must be 3 to 11 characters', { sender: 'AB' }],
    ['sender must be 3 to 11 characters', { sender: 'ABCDEFGHIJKL' }],
    ['sender may contain only letters, digits and spaces', { sender: 'My-Brand' }],
    ['sender must contain at least one letter', { sender: '0412345678' }],
    ['business_name is required', { sender: 'MyBrand', business_name: '' }],
    ['business_name must be at most 200 characters', { sender: 'MyBrand', business_name: 'B'.repeat(201) }],
    ['abn is required', { sender: 'MyBrand', abn: undefined }],
    ['abn must be a string', { sender: 'MyBrand', abn: 51824753556 }],
    ['abn is not a valid ABN: its check digits do not match', { sender: 'MyBrand', abn: '51 824 753 557' }],
    ['abn must be 11 digits', { sender: 'MyBrand', abn: '5182475355' }],
    ['abn must be 11 digits', { sender: 'MyBrand', abn: '518247535566' }],
    ['abn must contain only digits', { sender: 'MyBrand', abn: '51 824 753 55G' }],
    ['reason is required', { sender: 'MyBrand', reason: '  ' }],
    ['reason must be at most 1000 characters', { sender: 'MyBrand', reason: 'x'.repeat(1001) }],
  ] as Array<[string, Record<string, unknown>]>)('refuses a registration: 400 %s', async (error, body) => {
    const acct = await createAccount(t.app);
    const res = await submit(acct, body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error });
    expect((await list(acct)).body.total).toBe(0);
  });

  it('refuses the Sender ID the platform texts from', async () => {
    const res = await submit(await createAccount(t.app), { sender: 'smsverify' });
    expect([res.status, res.body]).toEqual([409, { error: 'This Sender ID is reserved' }]);
  });

  it('lifecycle by API key: submitted → listed for review → approved with the CLI → an active alpha sender that sends; the owner is emailed', async () => {
    const acct = await accountWithOwner(t.app, { credits: 5, senders: ['Existing'], name: 'Harbour Bakery' });
    const sender = nextBrand();
    const res = await submit(acct, { sender: ` ${sender} `, abn: '51824753556' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'complete', registration_id: expect.any(Number), sender, state: 'submitted' });
    const id = res.body.registration_id;
    expect((await list(acct)).body).toEqual({
      status: 'complete',
      total: 1,
      limit: 100,
      offset: 0,
      results: [
        {
          registration_id: id,
          sender,
          business_name: 'Harbour Bakery Pty Ltd',
          abn: '51824753556',
          reason: 'Order notices',
          state: 'submitted',
          rejection_reason: null,
          submitted_at: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
          decided_at: null,
        },
      ],
    });
    // Not a sender until approved.
    expect(await senders(acct)).toEqual(['Existing:alpha']);

    const queue = await runCli('registration:list', '--state', 'submitted');
    expect(queue.code).toBe(0);
    const keyId = (await db.query(`SELECT id FROM api_keys WHERE username = $1`, [acct.username]))[0].id;
    expect(queue.json.registrations.find((r: { registration_id: number }) => r.registration_id === id)).toEqual({
      registration_id: id,
      account_id: acct.accountId,
      account_name: 'Harbour Bakery',
      sender,
      business_name: 'Harbour Bakery Pty Ltd',
      abn: '51824753556',
      reason: 'Order notices',
      state: 'submitted',
      rejection_reason: null,
      submitted_by: `API key ${keyId}`,
      submitted_at: expect.any(String),
      decided_at: null,
    });

    const approved = await runCli('registration:approve', '--id', String(id));
    expect(approved.code).toBe(0);
    expect(approved.json).toMatchObject({ registration_id: id, state: 'approved', sender_active: true, emailed: [acct.ownerEmail] });
    expect(await senders(acct)).toEqual(['Existing:alpha', `${sender}:alpha`]);
    expect((await t.api.get('/v1/senders', { auth: acct.auth })).body.results[1]).toEqual({
      sender,
      type: 'alpha',
      status: 'active',
      label: 'Harbour Bakery Pty Ltd',
      is_default: false,
    });
    const sent = await t.api.post('/v1/messages', { auth: acct.auth, body: { messages: [{ to: '0412999101', message: 'Your order is ready', sender }] } });
    expect(sent.body.results[0]).toMatchObject({ status: 'success', sender });
    const mail = await smtp.mailTo(acct.ownerEmail, new RegExp(`Sender ID ${sender} approved`));
    expect(mail.text).toContain(`The registration of the Sender ID "${sender}" for Harbour Bakery (registration ${id}) is approved.`);
    expect((await list(acct, { state: 'approved' })).body.results[0]).toMatchObject({ state: 'approved', decided_at: expect.stringMatching(/^\d{4}-/) });
    expect((await list(acct, { state: 'submitted' })).body.total).toBe(0);
    expect(await db.query(`SELECT actor, action, detail FROM audit_log WHERE account_id = $1 AND action LIKE 'sender_registration.%' ORDER BY id`, [acct.accountId])).toEqual([
      { actor: `API key ${acct.username}`, action: 'sender_registration.submitted', detail: `${sender} (registration ${id})` },
      { actor: 'operator (CLI)', action: 'sender_registration.approved', detail: `${sender} (registration ${id})` },
    ]);

    const twice = await runCli('registration:approve', '--id', String(id));
    expect([twice.code, twice.stderr.trim()]).toEqual([1, `error: Registration ${id} is already approved`]);
    const late = await runCli('registration:reject', '--id', String(id), '--reason', 'Too late');
    expect([late.code, late.stderr.trim()]).toEqual([1, `error: Registration ${id} is already approved`]);
  });

  it('lifecycle from the dashboard: rejected with the CLI, the owner and the submitting user emailed the reason; the brand is free again', async () => {
    const acct = await accountWithOwner(t.app, { name: 'Corner Store' });
    const email = await userWith(t.app, acct.accountId, ['manage_senders']);
    const browser = await signedIn(t.app, email);
    const sender = nextBrand();
    await browser.get('/senders');
    const posted = await browser.post('/senders/registrations', { sender, business_name: 'Corner Store Pty Ltd', abn: ABN, reason: 'Receipts' });
    expect([posted.status, posted.location]).toEqual([303, '/senders?notice=registration_submitted']);
    const id = (await list(acct)).body.results[0].registration_id;
    const queued = (await runCli('registration:list')).json.registrations.find((r: { registration_id: number }) => r.registration_id === id);
    expect(queued.submitted_by).toMatch(/^user \d+$/);

    const rejected = await runCli('registration:reject', '--id', String(id), '--reason', '  The ABN belongs to   another business ');
    expect(rejected.code).toBe(0);
    expect(rejected.json).toMatchObject({ registration_id: id, state: 'rejected', rejection_reason: 'The ABN belongs to another business' });
    expect(rejected.json.emailed.sort()).toEqual([acct.ownerEmail, email].sort());
    for (const to of [acct.ownerEmail, email]) {
      const mail = await smtp.mailTo(to, new RegExp(`Sender ID ${sender} not approved`));
      expect(mail.text).toContain('Reason: The ABN belongs to another business');
    }
    expect((await list(acct)).body.results[0]).toMatchObject({ state: 'rejected', rejection_reason: 'The ABN belongs to another business' });
    expect(await senders(acct)).toEqual(['TestBrand:alpha']);
    const page = await browser.get('/senders');
    expect(page.html).toContain('The ABN belongs to another business');

    // A rejected registration holds nothing: another business may register the brand.
    const other = await createAccount(t.app);
    expect((await submit(other, { sender })).status).toBe(200);
  });

  it('keeps a brand to one account (case and spaces ignored), refuses repeats, and reactivates an approved ID that was deactivated', async () => {
    const a = await createAccount(t.app);
    const b = await createAccount(t.app);
    const sender = nextBrand();
    const spaced = `${sender.slice(0, 3)} ${sender.slice(3)}`.slice(0, 11).toUpperCase();
    const first = await submit(a, { sender });
    expect(first.status).toBe(200);
    expect([(await submit(b, { sender: spaced })).status, (await submit(b, { sender: spaced })).body]).toEqual([
      409,
      { error: 'This Sender ID is already registered by another account' },
    ]);
    expect((await submit(a, { sender: sender.toLowerCase() })).body).toEqual({ error: 'This Sender ID already has a registration awaiting review' });

    expect((await runCli('registration:approve', '--id', String(first.body.registration_id))).code).toBe(0);
    expect((await submit(a, { sender })).body).toEqual({ error: 'This Sender ID is already active on this account' });
    expect((await submit(b, { sender })).body).toEqual({ error: 'This Sender ID is already registered by another account' });

    expect((await t.api.delete('/v1/senders', { auth: a.auth, body: { sender } })).status).toBe(200);
    expect(await senders(a)).toEqual(['TestBrand:alpha']);
    const again = await submit(a, { sender });
    expect(again.body).toEqual({ status: 'complete', registration_id: first.body.registration_id, sender, state: 'approved' });
    expect(await senders(a)).toEqual(['TestBrand:alpha', `${sender}:alpha`]);
    expect((await list(a)).body.total).toBe(1);
    expect((await submit(b, { sender })).status).toBe(409);
  });

  it('lets exactly one of several accounts racing for one brand have it', async () => {
    const accounts = await Promise.all(Array.from({ length: 6 }, () => createAccount(t.app)));
    const sender = nextBrand();
    const answers = await Promise.all(accounts.map((acct, i) => submit(acct, { sender: i % 2 ? sender.toUpperCase() : sender })));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409, 409, 409, 409, 409]);
    for (const refused of answers.filter((a) => a.status === 409)) expect(refused.body).toEqual({ error: 'This Sender ID is already registered by another account' });
    expect((await db.query(`SELECT count(*)::int AS n FROM sender_registrations WHERE brand_key = $1`, [sender.toUpperCase()]))[0].n).toBe(1);
  });

  it('lists only the account’s own registrations, newest first, with paging and the state filter', async () => {
    const mine = await createAccount(t.app);
    const theirs = await createAccount(t.app);
    const [one, two] = [nextBrand(), nextBrand()];
    await submit(mine, { sender: one });
    await submit(mine, { sender: two });
    await submit(theirs, { sender: nextBrand() });
    expect((await list(mine)).body.results.map((r: { sender: string }) => r.sender)).toEqual([two, one]);
    expect((await list(mine, { limit: 1, offset: 1 })).body).toMatchObject({ total: 2, limit: 1, offset: 1, results: [{ sender: one }] });
    expect((await list(theirs)).body.total).toBe(1);
    for (const [query, error] of [
      [{ state: 'pending' }, 'Invalid state filter. Valid values: submitted, approved, rejected'],
      [{ limit: 0 }, 'limit must be between 1 and 200'],
      [{ offset: -1 }, 'offset must be a non-negative integer'],
    ] as Array<[Record<string, string | number>, string]>) {
      const res = await list(mine, query);
      expect([res.status, res.body]).toEqual([400, { error }]);
    }
    // Another account's registration cannot be decided through this account's API: there is no such route, only the operator's CLI.
    expect((await t.api.post('/v1/sender-registrations/1/approve', { auth: mine.auth })).status).toBe(404);
  });

  it('registration commands fail clearly on bad flags and unknown registrations', async () => {
    const cases: Array<[string[], number, string]> = [
      [['registration:approve'], 2, '--id is required'],
      [['registration:approve', '--id', 'x'], 2, '--id must be a positive integer'],
      [['registration:approve', '--id', '99999999'], 1, 'Registration 99999999 not found'],
      [['registration:reject', '--id', '99999999'], 2, '--reason is required'],
      // Longer than the API and the service take: a usage error, before anything is looked up.
      [['registration:reject', '--id', '99999999', '--reason', 'x'.repeat(501)], 2, '--reason must be at most 500 characters'],
      [['registration:list', '--state', 'pending'], 2, '--state must be one of submitted, approved, rejected'],
    ];
    const results = await Promise.all(cases.map(([args]) => runCli(...args)));
    expect(results.map((r) => [r.code, r.stdout, r.stderr.trim()])).toEqual(cases.map(([, code, message]) => [code, '', `error: ${message}`]));
  });

  it('records which API key submitted a registration (no user)', async () => {
    const acct: DashboardAccount = await accountWithOwner(t.app);
    const sender = nextBrand();
    await submit(acct, { sender });
    const [row] = await db.query(`SELECT r.user_id, k.username FROM sender_registrations r JOIN api_keys k ON k.id = r.api_key_id WHERE r.sender = $1`, [sender]);
    expect(row).toEqual({ user_id: null, username: acct.username });
  });
});
