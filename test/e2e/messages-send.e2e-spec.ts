import { DataSource } from 'typeorm';
import { failInsertsFor } from '../support/fail-inserts';
import { createAccount, startTestApp, TestAccount, TestApp } from '../support/test-app';

describe('POST /v1/messages', () => {
  let t: TestApp;
  let acct: TestAccount;

  beforeAll(async () => {
    // Acceptance only: no delivery workers in this process, so statuses stay as the send left them.
    t = await startTestApp({ inflightLimit: 50, appRole: 'api' });
  });
  beforeEach(async () => {
    acct = await createAccount(t.app, { credits: 100, senders: ['Brand', '61400000001'] });
  });
  afterAll(() => t.close());

  const send = (body: unknown, a = acct) => t.api.post('/v1/messages', { auth: a.auth, body });
  const balance = async (a = acct) => (await t.api.get('/v1/account', { auth: a.auth })).body.credit_balance as number;

  describe('request validation', () => {
    it.each([
      [{}, 'Missing or invalid messages parameter; should be an array of messages'],
      [{ messages: 'hello' }, 'Missing or invalid messages parameter; should be an array of messages'],
      [{ messages: {} }, 'Missing or invalid messages parameter; should be an array of messages'],
      [{ messages: [] }, 'Missing or invalid messages parameter; should be an array of messages'],
      [{ messages: [{}], max_parts: 0 }, 'max_parts must be between 1 and 99'],
      [{ messages: [{}], max_parts: 100 }, 'max_parts must be between 1 and 99'],
      [{ messages: [{}], max_parts: 'five' }, 'max_parts must be between 1 and 99'],
      [{ messages: [{}], enable_unicode: 'yes' }, 'enable_unicode must be a boolean'],
      [{ messages: [{}], shorten_urls: 1 }, 'shorten_urls must be a boolean'],
      [{ messages: [{}], ignore_unsubscribes: 'true' }, 'ignore_unsubscribes must be a boolean'],
    ])('answers 400 for %j', async (body, error) => {
      const res = await send(body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error });
    });

    it('answers 400 for more than 10000 messages and stores nothing', async () => {
      const messages = Array.from({ length: 10001 }, () => ({ to: '0412345678', message: 'x', sender: 'Brand' }));
      const res = await send({ messages });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'The maximum number of messages per request is 10000' });
      expect((await t.api.get('/v1/messages', { auth: acct.auth })).body.total).toBe(0);
    });

    it('answers 403 No allowed senders found for this user when the account has none', async () => {
      const none = await createAccount(t.app, { credits: 10, senders: [] });
      const res = await send({ messages: [{ to: '0412345678', message: 'x', sender: 'Brand' }] }, none);
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ error: 'No allowed senders found for this user' });
    });
  });

  it('answers a mixed batch entry by entry in request order, charging only the successes', async () => {
    await t.api.post('/v1/unsubscribes', { auth: acct.auth, body: { number: '0412000009' } });
    const res = await send({
      messages: [
        { to: '0412 000 001', message: 'Hello', sender: 'Brand', custom_ref: 'ref-1' },
        { to: '0412000009', message: 'Hello', sender: 'Brand' },
        { to: '0298765432', message: 'Hello', sender: 'Brand' },
        { message: 'Hello', sender: 'Brand' },
        { to: '0412000002', sender: 'Brand' },
        { to: '0412000002', message: '', sender: 'Brand' },
        { to: '0412000002', message: 'Hello' },
        { to: '0412000002', message: 'Hello', sender: 'NotMine' },
        { to: '0412000002', message: 'Hello', sender: 'Brand', custom_ref: 'x'.repeat(256) },
        { to: '0412000002', message: 'Hello', sender: 'Brand', scheduled_for: 'tomorrow' },
        { to: '0412000002', message: 'Héllo 😀', sender: 'Brand' },
        { to: '0412000002', message: 'a'.repeat(161), sender: 'Brand' },
        { to: '+61412000003', message: 'a'.repeat(161), sender: '61400000001' },
      ],
    });
    expect(res.status).toBe(200);
    const r = res.body.results;
    expect(res.body).toMatchObject({ status: 'complete', send_id: expect.any(Number), ignore_unsubscribes: false, total_cost: 5 });
    expect(r[0]).toEqual({
      to: '61412000001',
      message: 'Hello',
      sender: 'Brand',
      custom_ref: 'ref-1',
      status: 'success',
      cost: 1,
      message_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      conversation: 0,
      scheduled_for: null,
    });
    expect(Object.keys(r[0])).toEqual(['to', 'message', 'sender', 'custom_ref', 'status', 'cost', 'message_id', 'conversation', 'scheduled_for']);
    expect(r[1]).toEqual({ to: '61412000009', message: 'Hello', sender: 'Brand', status: 'blocked', conversation: 0, scheduled_for: null, error: 'Recipient has unsubscribed' });
    expect(r.slice(2, 12).map((e: { status: string; error: string }) => [e.status, e.error])).toEqual([
      ['error', 'Invalid phone number format'],
      ['error', 'to is required'],
      ['error', 'message is required'],
      ['error', 'message is required'],
      ['error', 'sender is required'],
      ['error', 'Invalid sender. You do not have permission to use this sender'],
      ['error', 'custom_ref must be at most 255 characters'],
      ['error', 'scheduled_for is not a valid datetime'],
      ['error', 'Message contains characters that require enable_unicode'],
      ['success', undefined],
    ]);
    expect(r[2].to).toBe('0298765432');
    expect(r[11]).toMatchObject({ status: 'success', cost: 2 });
    expect(r[12]).toMatchObject({ to: '61412000003', status: 'success', cost: 2 });
    expect(await balance()).toBe(95);
  });

  it('answers JSON with the Content-Type every JSON route has, the same text its result objects serialize to', async () => {
    const res = await send({ messages: [{ to: '0412000003', message: 'Line one\nline "two" \\ é😀', sender: 'Brand', custom_ref: 'json-1' }], enable_unicode: true });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.text).toBe(JSON.stringify(res.body));
    expect(res.body.results[0]).toMatchObject({ message: 'Line one\nline "two" \\ é😀', custom_ref: 'json-1', status: 'success' });
  });

  it('accepts a numeric sender in every form a recipient accepts and answers (and stores) its normalised form', async () => {
    const forms = ['0400000001', '0400 000 001', '+61400000001', '61400000001', '(04) 0000-0001', '+61 400 000 001'];
    const res = await send({ messages: forms.map((sender) => ({ to: '0412000011', message: 'Hi', sender, custom_ref: 'sender-forms' })) });
    expect(res.status).toBe(200);
    expect(res.body.results.map((r: { status: string; sender: string }) => [r.status, r.sender])).toEqual(forms.map(() => ['success', '61400000001']));
    const stored = await t.api.get('/v1/messages', { auth: acct.auth, query: { custom_ref: 'sender-forms' } });
    expect(new Set(stored.body.results.map((m: { sender: string }) => m.sender))).toEqual(new Set(['61400000001']));
  });

  it('matches alphanumeric senders exactly', async () => {
    const res = await send({ messages: ['Brand', 'brand', 'Brand '].map((sender) => ({ to: '0412000012', message: 'Hi', sender })) });
    expect(res.body.results.map((r: { status: string; sender: string; error?: string }) => [r.status, r.sender, r.error])).toEqual([
      ['success', 'Brand', undefined],
      ['error', 'brand', 'Invalid sender. You do not have permission to use this sender'],
      ['error', 'Brand ', 'Invalid sender. You do not have permission to use this sender'],
    ]);
  });

  it('keeps a batch of several slices whole: its messages in request order, the send’s counts, and the charge', async () => {
    const big = await createAccount(t.app, { credits: 5000, senders: ['Brand'] });
    await t.api.post('/v1/unsubscribes', { auth: big.auth, body: { number: '0412999000' } });
    // 1300 entries (the messages are made 500 at a time while the ones before are stored): every seventh
    // to the unsubscribed number, every eleventh invalid, every thirteenth two parts.
    const messages = Array.from({ length: 1300 }, (_, i) => ({
      to: i % 7 === 0 ? '0412999000' : i % 11 === 0 ? '02' : `0412${String(100000 + i)}`,
      message: i % 13 === 0 ? `Long ${i} ${'a'.repeat(160)}` : `Hello ${i}`,
      sender: 'Brand',
      custom_ref: `ref-${i}`,
    }));
    const res = await send({ messages }, big);
    expect(res.status).toBe(200);
    const results = res.body.results as Array<{ status: string; cost?: number; message_id?: string; custom_ref?: string }>;
    const sent = results.filter((r) => r.status === 'success');
    const blocked = results.filter((r) => r.status === 'blocked').length;
    const cost = sent.reduce((sum, r) => sum + r.cost!, 0);
    expect([sent.length, blocked, results.length - sent.length - blocked]).toEqual([1012, 186, 102]);
    expect(res.body.total_cost).toBe(cost);

    const db = t.app.get(DataSource);
    const [row] = await db.query(`SELECT message_count, total_cost, blocked_count FROM sends WHERE id = $1`, [res.body.send_id]);
    expect(row).toEqual({ message_count: 1012, total_cost: cost * 100, blocked_count: 186 });
    const stored = (await db.query(`SELECT id, custom_ref FROM messages WHERE send_id = $1 ORDER BY seq`, [res.body.send_id])) as Array<{ id: string; custom_ref: string }>;
    expect(stored).toEqual(sent.map((r) => ({ id: r.message_id, custom_ref: r.custom_ref })));
    expect(await balance(big)).toBe(5000 - cost);
  });

  it('keeps the counts of a batch none of whose entries became a message, and charges nothing', async () => {
    await t.api.post('/v1/unsubscribes', { auth: acct.auth, body: { number: '0412999001' } });
    const res = await send({
      messages: [
        { to: '0412999001', message: 'Hi', sender: 'Brand' },
        { to: '02', message: 'Hi', sender: 'Brand' },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body.results.map((r: { status: string }) => r.status)).toEqual(['blocked', 'error']);
    const [row] = await t.app.get(DataSource).query(`SELECT message_count, total_cost, blocked_count FROM sends WHERE id = $1`, [res.body.send_id]);
    expect(row).toEqual({ message_count: 0, total_cost: 0, blocked_count: 1 });
    expect(await balance()).toBe(100);
  });

  it('answers 500 Failed to process messages when storing fails, with nothing stored or charged', async () => {
    const restore = await failInsertsFor(t.app.get(DataSource), 'messages', acct.accountId);
    try {
      const res = await send({ messages: [{ to: '0412000005', message: 'Hi', sender: 'Brand' }] });
      expect(res.status).toBe(500);
      expect(res.body).toEqual({ error: 'Failed to process messages' });
    } finally {
      await restore();
    }
    expect(await balance()).toBe(100);
    expect((await t.api.get('/v1/messages', { auth: acct.auth })).body.total).toBe(0);
  });

  it('blocks unsubscribed recipients unless ignore_unsubscribes, which is echoed', async () => {
    await t.api.post('/v1/unsubscribes', { auth: acct.auth, body: { number: '0412000010' } });
    const res = await send({ ignore_unsubscribes: true, messages: [{ to: '0412000010', message: 'Hi', sender: 'Brand' }] });
    expect(res.body).toMatchObject({ ignore_unsubscribes: true, total_cost: 1, results: [{ status: 'success' }] });
  });

  it('answers 403 and stores nothing when the batch cannot be paid for', async () => {
    const poor = await createAccount(t.app, { credits: 2, senders: ['Brand'] });
    const res = await send({ messages: [1, 2, 3].map((i) => ({ to: `041200010${i}`, message: 'Hi', sender: 'Brand' })) }, poor);
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: 'Insufficient credits to send the batch of messages' });
    expect(await balance(poor)).toBe(2);
    expect((await t.api.get('/v1/messages', { auth: poor.auth })).body.total).toBe(0);
  });

  it('keeps the ledger equal to the balance after a send', async () => {
    await send({ messages: [{ to: '0412000011', message: 'a'.repeat(200), sender: 'Brand' }] });
    const ds = t.app.get(DataSource);
    const [{ sum }] = await ds.query('SELECT sum(amount)::bigint AS sum FROM credit_ledger WHERE account_id = $1', [acct.accountId]);
    expect(Number(sum)).toBe(9800);
    expect(await balance()).toBe(98);
  });

  it('charges the account rate per part', async () => {
    await t.app.get(DataSource).query('UPDATE accounts SET part_rate = 150 WHERE id = $1', [acct.accountId]);
    const res = await send({ messages: [{ to: '0412000012', message: 'a'.repeat(307), sender: 'Brand' }] });
    expect(res.body.results[0].cost).toBe(4.5);
    expect(res.body.total_cost).toBe(4.5);
    expect(await balance()).toBe(95.5);
  });

  it('never lets two concurrent batches take the balance below zero: one 200, one 403', async () => {
    const acctFive = await createAccount(t.app, { credits: 5, senders: ['Brand'] });
    const batch = (k: number) => ({ messages: Array.from({ length: 3 }, (_, i) => ({ to: `04120002${k}${i}`, message: 'Hi', sender: 'Brand' })) });
    const [a, b] = await Promise.all([send(batch(1), acctFive), send(batch(2), acctFive)]);
    expect([a.status, b.status].sort()).toEqual([200, 403]);
    expect(await balance(acctFive)).toBe(2);
    expect((await t.api.get('/v1/messages', { auth: acctFive.auth })).body.total).toBe(3);
  });

  it("inserts a send's messages before it waits for the account's row, which it locks only to debit", async () => {
    const ds = t.app.get(DataSource);
    const holder = ds.createQueryRunner();
    await holder.connect();
    try {
      // Another send of the account, between its debit and its commit.
      await holder.startTransaction();
      const [{ holderPid }] = await holder.query('SELECT pg_backend_pid() AS "holderPid"');
      await holder.query('UPDATE accounts SET credit_balance = credit_balance WHERE id = $1', [acct.accountId]);
      const pending = send({ messages: [{ to: '0412000301', message: 'Hi', sender: 'Brand' }] });
      // The send's backend, once it waits for the held row.
      const waiter = async (): Promise<number | undefined> => {
        const rows: Array<{ pid: number }> = await ds.query(`SELECT pid FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid))`, [holderPid]);
        return rows[0]?.pid;
      };
      let pid: number | undefined;
      for (let i = 0; i < 200 && pid === undefined; i++) {
        pid = await waiter();
        if (pid === undefined) await new Promise((r) => setTimeout(r, 25));
      }
      expect(pid).toBeDefined();
      // Waiting at the debit, the send already holds the locks of its inserted messages.
      const [{ holds }] = await ds.query(
        `SELECT count(*)::int AS holds FROM pg_locks l JOIN pg_class c ON c.oid = l.relation WHERE l.pid = $1 AND c.relname LIKE 'messages_p%' AND l.mode = 'RowExclusiveLock'`,
        [pid],
      );
      expect(holds).toBeGreaterThan(0);
      await holder.rollbackTransaction();
      expect((await pending).status).toBe(200);
      expect(await balance()).toBe(99);
    } finally {
      await holder.release();
    }
  });

  describe('test accounts', () => {
    it('computes and returns costs without checking or changing the balance', async () => {
      const sandbox = await createAccount(t.app, { test: true, credits: 0, senders: ['Brand'] });
      const res = await send({ messages: [{ to: '0412000013', message: 'a'.repeat(161), sender: 'Brand' }] }, sandbox);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ total_cost: 2, results: [{ status: 'success', cost: 2 }] });
      expect(await balance(sandbox)).toBe(0);
    });
  });

  describe('personalisation and {optout}', () => {
    it('fills placeholders from the contact matching `to` and leaves unknown braces as written', async () => {
      await t.api.post('/v1/contacts', { auth: acct.auth, body: { number: '0412000020', first_name: 'Ann', company: 'Acme' } });
      const res = await send({
        messages: [
          { to: '0412000020', message: 'Hi {first_name} of {company} ({last_name}) {First_Name} {foo} #{number}', sender: 'Brand' },
          { to: '0412000021', message: 'Hi {first_name}!', sender: 'Brand' },
        ],
      });
      expect(res.body.results[0].message).toBe('Hi Ann of Acme () {First_Name} {foo} #61412000020');
      expect(res.body.results[1].message).toBe('Hi !');
    });

    it('uses the most recently updated contact when duplicates exist', async () => {
      const dup = await createAccount(t.app, { credits: 10, senders: ['Brand'], allowDuplicateContacts: true });
      await t.api.post('/v1/contacts', { auth: dup.auth, body: { number: '0412000022', first_name: 'Old' } });
      const newer = await t.api.post('/v1/contacts', { auth: dup.auth, body: { number: '0412000022', first_name: 'Mid' } });
      await t.api.patch('/v1/contacts', { auth: dup.auth, body: { contact_id: newer.body.contact_id, first_name: 'New' } });
      const res = await send({ messages: [{ to: '0412000022', message: '{first_name}', sender: 'Brand' }] }, dup);
      expect(res.body.results[0].message).toBe('New');
    });

    it('appends " Opt out: Reply Stop" for number senders and a per-recipient opt-out link for alphanumeric ones, counting parts on the final text', async () => {
      const res = await send({
        messages: [
          { to: '0412000023', message: 'Sale{optout}', sender: '61400000001' },
          { to: '0412000023', message: 'Sale{optout}', sender: 'Brand' },
          { to: '0412000023', message: `${'a'.repeat(150)}{optout}`, sender: '61400000001' },
        ],
      });
      expect(res.body.results[0].message).toBe('Sale Opt out: Reply Stop');
      // Per recipient (7 characters), shorter than the account's link (10).
      expect(res.body.results[1].message).toMatch(/^Sale OptOut http:\/\/localhost:3000\/o\/[A-Za-z0-9]{7}$/);
      expect(res.body.results[2].cost).toBe(2); // 150 + 20 characters of opt-out text is two parts
    });

    it('never adds opt-out text by itself', async () => {
      const res = await send({ messages: [{ to: '0412000024', message: 'Plain', sender: '61400000001' }] });
      expect(res.body.results[0].message).toBe('Plain');
    });
  });

  describe('scheduling', () => {
    const inDays = (days: number) => new Date(Date.now() + days * 86_400_000);
    const iso = (d: Date) => d.toISOString().slice(0, 19);
    const shown = (d: Date) => d.toISOString().slice(0, 19).replace('T', ' ');

    it.each([
      ['T separator', (d: Date) => iso(d)],
      ['space separator', (d: Date) => iso(d).replace('T', ' ')],
      ['Z suffix with fractions', (d: Date) => `${iso(d)}.123Z`],
      ['+00:00 suffix', (d: Date) => `${iso(d)}+00:00`],
    ])('accepts the %s form and returns the time in UTC', async (_form, format) => {
      const when = inDays(2);
      const res = await send({ messages: [{ to: '0412000030', message: 'x', sender: 'Brand', scheduled_for: format(when) }] });
      expect(res.body.results[0]).toMatchObject({ status: 'success', scheduled_for: shown(when) });
    });

    it('converts other offsets to UTC', async () => {
      const res = await send({ messages: [{ to: '0412000031', message: 'x', sender: 'Brand', scheduled_for: `${inDays(3).toISOString().slice(0, 10)}T10:00:00+10:00` }] });
      expect(res.body.results[0].scheduled_for).toBe(`${inDays(3).toISOString().slice(0, 10)} 00:00:00`);
    });

    it('accepts minutes without seconds', async () => {
      const day = inDays(4).toISOString().slice(0, 10);
      const res = await send({ messages: [{ to: '0412000032', message: 'x', sender: 'Brand', scheduled_for: `${day}T08:15` }] });
      expect(res.body.results[0].scheduled_for).toBe(`${day} 08:15:00`);
    });

    it('sends a past or present time now (scheduled_for null, status pending)', async () => {
      const res = await send({ messages: [{ to: '0412000033', message: 'x', sender: 'Brand', scheduled_for: '2020-01-01T00:00:00' }] });
      expect(res.body.results[0]).toMatchObject({ status: 'success', scheduled_for: null });
      const found = await t.api.get('/v1/messages', { auth: acct.auth, query: { message_id: res.body.results[0].message_id } });
      expect(found.body.results[0].status).toBe('pending');
    });

    it('treats null and "" as not scheduled', async () => {
      const res = await send({
        messages: [
          { to: '0412000034', message: 'x', sender: 'Brand', scheduled_for: null },
          { to: '0412000034', message: 'x', sender: 'Brand', scheduled_for: '' },
        ],
      });
      expect(res.body.results.map((r: { scheduled_for: null }) => r.scheduled_for)).toEqual([null, null]);
    });

    it('allows 364 days ahead and refuses more than 365', async () => {
      const ok = await send({ messages: [{ to: '0412000035', message: 'x', sender: 'Brand', scheduled_for: iso(inDays(364)) }] });
      expect(ok.body.results[0].status).toBe('success');
      const far = await send({ messages: [{ to: '0412000035', message: 'x', sender: 'Brand', scheduled_for: iso(inDays(366)) }] });
      expect(far.body.results[0]).toMatchObject({ status: 'error', error: 'scheduled_for is not a valid datetime' });
    });

    it.each(['2026-13-01T00:00:00', '2027-02-30T10:00:00', '2027-01-01', 'soon', '2027-01-01T25:00:00'])('refuses %s', async (value) => {
      const res = await send({ messages: [{ to: '0412000036', message: 'x', sender: 'Brand', scheduled_for: value }] });
      expect(res.body.results[0]).toMatchObject({ status: 'error', error: 'scheduled_for is not a valid datetime' });
    });

    it('refuses a non-string scheduled_for', async () => {
      const res = await send({ messages: [{ to: '0412000037', message: 'x', sender: 'Brand', scheduled_for: 20270101 }] });
      expect(res.body.results[0]).toMatchObject({ status: 'error', error: 'scheduled_for is not a valid datetime' });
    });
  });
});
