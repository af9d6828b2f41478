import { DataSource } from 'typeorm';
import { Clock } from '../../src/common/time/clock';
import { SmscSimulator } from '../../src/smsc-sim/smsc-simulator';
import { smppSettings, startSmsc } from '../support/delivery';
import { LogCapture } from '../support/log-capture';
import { PageClient, textOf } from '../support/page-client';
import { createAccount, startTestApp, TestAccount, TestApp } from '../support/test-app';
import { until } from '../support/wait';
import { MESSAGE_STATUS, WITH_PART_STATUS } from '../../src/delivery/state/message-status';

const HOUR = 3_600_000;
const LINK = /https:\/\/dash\.example\.com\.au\/senders\/confirm\/([A-Za-z0-9_-]{22})/;

/** Own mobile as sender: the confirmation text goes through dispatch to a real SMPP peer, at no charge; the link confirms once, for 24 hours. */
describe('POST /v1/senders, GET /senders/confirm/{token}, DELETE /v1/senders', () => {
  let t: TestApp;
  let smsc: SmscSimulator;
  let db: DataSource;
  let now: Date | undefined;
  let mobile = 0;
  const logs = new LogCapture();
  /** A fresh mobile per test, so the per-number hourly throttle of one test never touches another. */
  const nextMobile = () => `04135${String(++mobile).padStart(5, '0')}`;
  const normalised = (local: string) => `61${local.slice(1)}`;

  beforeAll(async () => {
    const started = await startSmsc({ receiptDelayMs: 50 });
    smsc = started.smsc;
    // Budgets out of the way: these tests are about one number's limit and the link (own-mobile-budgets covers the budgets).
    const budgets = {
      ownMobileTextsPerAccountHour: 1000,
      ownMobileTextsPerAccountDay: 1000,
      ownMobileTextsPerKeyHour: 1000,
      ownMobileTextsPerKeyDay: 1000,
      ownMobileTextsPerAddressHour: 1000,
      ownMobileTextsPerAddressDay: 1000,
    };
    t = await startTestApp(smppSettings(started.port, { dashboardUrl: 'https://dash.example.com.au', systemSender: 'SMSVerify', logLevel: 'debug', ...budgets }), {
      logDestination: logs.stream,
    });
    db = t.app.get(DataSource);
    const clock = t.app.get(Clock);
    const real = clock.now.bind(clock);
    jest.spyOn(clock, 'now').mockImplementation(() => (now ? new Date(now) : real()));
  });
  afterAll(async () => {
    await t.close();
    await smsc.stop();
  });
  afterEach(() => {
    now = undefined;
  });
  const advance = (ms: number) => {
    now = new Date((now ?? new Date()).getTime() + ms);
  };

  const register = (acct: TestAccount, body: unknown) => t.api.post('/v1/senders', { auth: acct.auth, body });
  const senders = async (acct: TestAccount) => (await t.api.get('/v1/senders', { auth: acct.auth })).body.results as Array<Record<string, unknown>>;
  /** The text the SMSC received for a number (its parts joined), once it has arrived. */
  async function textTo(number: string, count = 1): Promise<string> {
    await until(() => smsc.submits.filter((s) => s.destinationAddr === number && s.udh?.[5] !== 2).length >= count, `text ${count} to ${number}`);
    const parts = smsc.submits.filter((s) => s.destinationAddr === number);
    const messages: string[] = [];
    for (const part of parts) {
      if (!part.udh || part.udh[5] === 1) messages.push(part.text);
      else messages[messages.length - 1] += part.text;
    }
    return messages[count - 1];
  }
  const linkIn = (text: string) => new URL(LINK.exec(text)![0]);
  /**
   * The link of the latest text to a number, read from the stored message (texts queued with the clock
   * moved ahead are due then, so they do not reach the SMSC during the test).
   */
  const latestLink = async (number: string) =>
    linkIn((await db.query(`SELECT m.body FROM sender_verifications v JOIN messages m ON m.id = v.message_id WHERE v.number = $1 ORDER BY v.id DESC LIMIT 1`, [number]))[0].body);
  const open = (link: URL) => new PageClient(t.app).get(link.pathname);

  it('texts a confirmation link through dispatch from the system sender, at no charge; opening it makes the number an active own sender', async () => {
    const acct = await createAccount(t.app, { credits: 5, senders: ['Brand'], name: 'Harbour Bakery' });
    const number = nextMobile();
    const res = await register(acct, { number: `${number.slice(0, 4)} ${number.slice(4, 7)} ${number.slice(7)}`, label: 'Sam’s mobile' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'complete', sender: normalised(number), type: 'own', verification: 'pending' });
    // Pending numbers are not senders yet.
    expect((await senders(acct)).map((s) => s.sender)).toEqual(['Brand']);
    const text = await textTo(normalised(number));
    expect(text).toMatch(/^Harbour Bakery asked to send SMS from this number\. To allow it, open https:\/\/dash\.example\.com\.au\/senders\/confirm\/\S+ \(valid 24 hours\)\./);
    const submit = smsc.submits.find((s) => s.destinationAddr === normalised(number))!;
    expect(submit).toMatchObject({ sourceAddr: 'SMSVerify', sourceAddrTon: 5, registeredDelivery: 1 });

    // A real message of the platform's own account, in a system send, costing 0, with its receipt.
    const [message] = await db.query(
      `SELECT m.id, m.cost, m.status, m.is_test, s.kind, s.total_cost, a.is_system, a.id AS account_id
         FROM messages m JOIN sends s ON s.id = m.send_id JOIN accounts a ON a.id = m.account_id WHERE m.to_number = $1`,
      [normalised(number)],
    );
    expect(message).toMatchObject({ cost: 0, is_test: false, kind: 'system', total_cost: 0, is_system: true });
    expect(message.account_id).not.toBe(acct.accountId);
    await until(
      async () => (await db.query(`SELECT ${MESSAGE_STATUS} AS status FROM messages m ${WITH_PART_STATUS} WHERE m.id = $1`, [message.id]))[0].status === 'delivered',
      'the receipt',
    );
    expect(await db.query(`SELECT status FROM message_parts WHERE message_id = $1 ORDER BY part_number`, [message.id])).toEqual([{ status: 'delivered' }, { status: 'delivered' }]);
    // Nothing charged or shown to the account: balance, ledger, history.
    expect((await t.api.get('/v1/account', { auth: acct.auth })).body.credit_balance).toBe(5);
    expect(await db.query(`SELECT kind, amount FROM credit_ledger WHERE account_id = $1`, [acct.accountId])).toEqual([{ kind: 'grant', amount: 500 }]);
    expect(await db.query(`SELECT count(*)::int AS n FROM credit_ledger WHERE account_id = $1`, [message.account_id])).toEqual([{ n: 0 }]);
    expect((await t.api.get('/v1/messages', { auth: acct.auth })).body.total).toBe(0);

    const link = linkIn(text);
    const page = await open(link);
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(textOf(page.html)).toContain(`Number confirmed Thank you: ${normalised(number)} is now a sender of Harbour Bakery .`);
    expect(await senders(acct)).toEqual([
      { sender: 'Brand', type: 'alpha', status: 'active', label: '', is_default: false },
      { sender: normalised(number), type: 'own', status: 'active', label: 'Sam’s mobile', is_default: false },
    ]);
    // Only the link's digest is stored, and the used link is taken out of the stored text.
    const [{ body }] = await db.query(`SELECT body FROM messages WHERE id = $1`, [message.id]);
    expect(body).not.toContain(link.pathname.split('/').pop());
    expect(body).toContain('/senders/confirm/[used]');
    // Sendable at once, in any form of the number.
    const sent = await t.api.post('/v1/messages', { auth: acct.auth, body: { messages: [{ to: '0412999001', message: 'Hi', sender: `+${normalised(number)}` }] } });
    expect(sent.body.results[0]).toMatchObject({ status: 'success', sender: normalised(number) });
    // Audited: registered by the API key, confirmed by the link.
    const audit = await db.query(`SELECT actor, action, detail FROM audit_log WHERE account_id = $1 ORDER BY id`, [acct.accountId]);
    expect(audit).toEqual([
      { actor: `API key ${acct.username}`, action: 'sender.own_registered', detail: normalised(number) },
      { actor: 'confirmation link (text message)', action: 'sender.own_confirmed', detail: normalised(number) },
    ]);
    // The token is never in a log line (request lines carry the page's path).
    const token = link.pathname.split('/').pop()!;
    expect(logs.raw.some((line) => line.includes('/senders/confirm/[redacted]'))).toBe(true);
    expect(logs.raw.filter((line) => line.includes(token))).toEqual([]);
  });

  it('shows a used link as already confirmed while the number is active, and as invalid once it is not', async () => {
    const acct = await createAccount(t.app, { name: 'Twice Tapped' });
    const number = nextMobile();
    await register(acct, { number });
    const link = linkIn(await textTo(normalised(number)));
    expect((await open(link)).status).toBe(200);
    const again = await open(link);
    expect(again.status).toBe(200);
    expect(textOf(again.html)).toContain(`This number was already confirmed: ${normalised(number)} is now a sender of Twice Tapped .`);
    expect((await db.query(`SELECT count(*)::int AS n FROM audit_log WHERE account_id = $1 AND action = 'sender.own_confirmed'`, [acct.accountId]))[0].n).toBe(1);

    expect((await t.api.delete('/v1/senders', { auth: acct.auth, body: { sender: number } })).body).toEqual({
      status: 'complete',
      sender: normalised(number),
      type: 'own',
      removed: true,
    });
    const reused = await open(link);
    expect(reused.status).toBe(400);
    expect(textOf(reused.html)).toContain('Link not valid This confirmation link is invalid, already used or expired. Register the number again to get a new link.');
    expect(await senders(acct)).toEqual([{ sender: 'TestBrand', type: 'alpha', status: 'active', label: '', is_default: false }]);
  });

  it('refuses an expired link (24 hours) and an unknown one; the number stays pending', async () => {
    const acct = await createAccount(t.app);
    const number = nextMobile();
    now = new Date();
    await register(acct, { number });
    const link = linkIn(await textTo(normalised(number)));
    advance(24 * HOUR + 1000);
    const expired = await open(link);
    expect(expired.status).toBe(400);
    expect(textOf(expired.html)).toContain('This confirmation link is invalid, already used or expired.');
    expect((await open(new URL('https://x/senders/confirm/AAAAAAAAAAAAAAAAAAAAAA'))).status).toBe(400);
    expect((await senders(acct)).map((s) => s.sender)).toEqual(['TestBrand']);
    expect((await db.query(`SELECT status FROM senders WHERE account_id = $1 AND value = $2`, [acct.accountId, normalised(number)]))[0].status).toBe('pending');
  });

  it('re-registering a pending number texts a new link (the old one stops working); a fourth text to one number within an hour is 429', async () => {
    const acct = await createAccount(t.app);
    const other = await createAccount(t.app);
    const number = nextMobile();
    now = new Date();
    expect((await register(acct, { number })).status).toBe(200);
    const first = linkIn(await textTo(normalised(number), 1));
    advance(60_000);
    expect((await register(acct, { number, label: 'Work phone' })).body).toEqual({ status: 'complete', sender: normalised(number), type: 'own', verification: 'pending' });
    const second = await latestLink(normalised(number));
    expect(second.pathname).not.toBe(first.pathname);
    expect((await open(first)).status).toBe(400);
    // Another account's text to the same number counts too: the handset is never flooded.
    advance(60_000);
    expect((await register(other, { number })).status).toBe(200);
    advance(60_000);
    const refused = await register(acct, { number });
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ error: 'Too many confirmation messages to this number: at most 3 an hour. Try again in 57 minutes.' });
    expect(refused.headers['retry-after']).toBe(String(57 * 60));
    expect((await register(await createAccount(t.app), { number })).status).toBe(429);
    // An hour after the first text, one more may go.
    advance(57 * 60_000);
    expect((await register(acct, { number })).status).toBe(200);
    expect((await open(second)).status).toBe(400);
    const latest = await latestLink(normalised(number));
    expect((await open(latest)).status).toBe(200);
    expect((await senders(acct)).find((s) => s.sender === normalised(number))).toEqual({
      sender: normalised(number),
      type: 'own',
      status: 'active',
      label: 'Work phone',
      is_default: false,
    });
    // The other account's link still works for the other account only.
    expect((await senders(other)).map((s) => s.sender)).toEqual(['TestBrand']);
  });

  it('holds the hourly limit under concurrent requests from many instances of a client', async () => {
    const acct = await createAccount(t.app);
    const number = nextMobile();
    const answers = await Promise.all(Array.from({ length: 6 }, () => register(acct, { number })));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 200, 429, 429, 429]);
    expect((await db.query(`SELECT count(*)::int AS n FROM sender_verifications WHERE number = $1`, [normalised(number)]))[0].n).toBe(3);
    expect(await db.query(`SELECT count(*)::int AS n FROM sender_verifications WHERE number = $1 AND retired_at IS NULL`, [normalised(number)])).toEqual([{ n: 1 }]);
    expect(await db.query(`SELECT type, status FROM senders WHERE account_id = $1 AND value = $2`, [acct.accountId, normalised(number)])).toEqual([
      { type: 'own', status: 'pending' },
    ]);
  });

  it('refuses a number already active on the account (409), whatever its type, and bad input with the catalogue texts', async () => {
    const acct = await createAccount(t.app, { senders: ['61400000321'] });
    expect((await register(acct, { number: '0400 000 321' })).status).toBe(409);
    expect((await register(acct, { number: '0400000321' })).body).toEqual({ error: 'This number is already an active sender on this account' });
    for (const [body, error] of [
      [{}, 'number is required'],
      [{ number: '' }, 'number is required'],
      [{ number: 412345678 }, 'number must be a string'],
      [{ number: '02 9999 9999' }, 'Invalid phone number format'],
      [{ number: 'MyBrand' }, 'Invalid phone number format'],
      [{ number: nextMobile(), label: 7 }, 'label must be a string'],
      [{ number: nextMobile(), label: 'x'.repeat(101) }, 'label must be at most 100 characters'],
    ] as Array<[unknown, string]>) {
      const res = await register(acct, body);
      expect([body, res.status, res.body]).toEqual([body, 400, { error }]);
    }
    expect(await db.query(`SELECT count(*)::int AS n FROM senders WHERE account_id = $1`, [acct.accountId])).toEqual([{ n: 1 }]);
  });

  describe('DELETE /v1/senders', () => {
    it('deactivates an alpha sender at once: sends from it are refused', async () => {
      const acct = await createAccount(t.app, { credits: 5, senders: ['Brand', 'Other'] });
      expect((await t.api.delete('/v1/senders', { auth: acct.auth, body: { sender: 'Brand' } })).body).toEqual({
        status: 'complete',
        sender: 'Brand',
        type: 'alpha',
        removed: true,
      });
      expect((await senders(acct)).map((s) => s.sender)).toEqual(['Other']);
      const sent = await t.api.post('/v1/messages', { auth: acct.auth, body: { messages: [{ to: '0412999002', message: 'Hi', sender: 'Brand' }] } });
      expect(sent.body.results[0]).toMatchObject({ status: 'error', error: 'Invalid sender. You do not have permission to use this sender' });
      expect((await t.api.delete('/v1/senders', { auth: acct.auth, body: { sender: 'Brand' } })).body).toEqual({ error: 'Sender not found' });
    });

    it('withdraws a pending mobile: its link stops working', async () => {
      const acct = await createAccount(t.app);
      const number = nextMobile();
      await register(acct, { number });
      const link = linkIn(await textTo(normalised(number)));
      expect((await t.api.delete('/v1/senders', { auth: acct.auth, body: { sender: normalised(number) } })).status).toBe(200);
      expect((await open(link)).status).toBe(400);
      expect(await db.query(`SELECT status FROM senders WHERE account_id = $1 AND value = $2`, [acct.accountId, normalised(number)])).toEqual([{ status: 'removed' }]);
    });

    it('refuses dedicated and shared numbers, unknown senders and bad input with their texts', async () => {
      const acct = await createAccount(t.app, { senders: ['61400000501'] });
      await db.query(`INSERT INTO senders (account_id, value, type) VALUES ($1, '61400000502', 'shared')`, [acct.accountId]);
      for (const [body, status, error] of [
        [{ sender: '0400 000 501' }, 409, 'Dedicated numbers cannot be removed: a dedicated number ends with its subscription'],
        [{ sender: '61400000502' }, 409, 'Shared numbers are assigned by us and cannot be removed'],
        [{ sender: 'Nobody' }, 404, 'Sender not found'],
        [{}, 400, 'sender is required'],
        [{ sender: ['TestBrand'] }, 400, 'sender must be a string'],
      ] as Array<[unknown, number, string]>) {
        const res = await t.api.delete('/v1/senders', { auth: acct.auth, body });
        expect([body, res.status, res.body]).toEqual([body, status, { error }]);
      }
      expect((await senders(acct)).map((s) => s.sender)).toEqual(['61400000501', '61400000502']);
    });

    it('never touches another account’s senders', async () => {
      const owner = await createAccount(t.app, { senders: ['Mine'] });
      const intruder = await createAccount(t.app, { senders: ['Theirs'] });
      const number = nextMobile();
      await register(owner, { number });
      for (const sender of ['Mine', normalised(number)]) {
        expect((await t.api.delete('/v1/senders', { auth: intruder.auth, body: { sender } })).body).toEqual({ error: 'Sender not found' });
      }
      expect((await senders(owner)).map((s) => s.sender)).toEqual(['Mine']);
      expect(await db.query(`SELECT status FROM senders WHERE account_id = $1 AND value = $2`, [owner.accountId, normalised(number)])).toEqual([{ status: 'pending' }]);
      // The same number registered by the other account is the other account's own pending sender.
      expect((await register(intruder, { number })).status).toBe(200);
      const link = linkIn(await textTo(normalised(number), 2));
      await open(link);
      expect((await senders(intruder)).map((s) => s.sender)).toEqual(['Theirs', normalised(number)]);
      expect((await senders(owner)).map((s) => s.sender)).toEqual(['Mine']);
    });
  });
});
