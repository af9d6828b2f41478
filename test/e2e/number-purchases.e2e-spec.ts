import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DataSource } from 'typeorm';
import { SendersService } from '../../src/senders/senders.service';
import { accountWithOwner, DashboardAccount } from '../support/dashboard';
import { addCard, buyNumber, enablePurchases, newKey } from '../support/purchases';
import { runCli } from '../support/run-cli';
import { SmtpPeer } from '../support/smtp-peer';
import { createAccount, startTestApp, TestApp } from '../support/test-app';

const ADDRESS = 'Level 2, 10 Smith St, Sydney NSW 2000';
const TIMESTAMP = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/;

/** GET /v1/available-numbers, POST and GET /v1/dedicated-numbers: buying numbers from the inventory for 12 months. */
describe('Dedicated number purchases', () => {
  let t: TestApp;
  let db: DataSource;
  const smtp = new SmtpPeer();
  const dir = mkdtempSync(path.join(tmpdir(), 'buy-numbers-'));
  let series = 0;

  beforeAll(async () => {
    await smtp.start();
    t = await startTestApp({ smtpUrl: smtp.url, inflightLimit: 20, purchaseJobsIntervalMs: 0 });
    db = t.app.get(DataSource);
  });
  afterAll(async () => {
    await t.close();
    await smtp.stop();
  });

  /** Loads fresh numbers at a price (dollars ex GST) through numbers:import; answers them normalised. */
  async function stock(count: number, price: string): Promise<string[]> {
    const base = 60_000_000 + ++series * 1000;
    const numbers = Array.from({ length: count }, (_, i) => `04${base + i}`);
    const file = path.join(dir, `stock-${series}.csv`);
    writeFileSync(file, ['number,annual_price_ex_gst', ...numbers.map((n) => `${n},${price}`)].join('\n'));
    expect((await runCli('numbers:import', '--file', file)).json).toMatchObject({ added: count });
    return numbers.map((n) => `61${n.slice(1)}`);
  }

  /** An owner's account with purchases on, a card, and the free number claimed (taken from a cheap number stocked for it). */
  async function buyer(options: { card?: string; claimFree?: boolean } = {}): Promise<DashboardAccount & { free?: string }> {
    const acct = await accountWithOwner(t.app, { credits: 5 });
    await enablePurchases(t.app, acct);
    await addCard(t.app, acct.accountId, options.card ?? '4242424242424242');
    if (options.claimFree === false) return acct;
    const [free] = await stock(1, '0');
    const claimed = await t.api.post('/v1/dedicated-numbers/free', { auth: acct.auth, body: { service_address: ADDRESS } });
    expect([claimed.status, claimed.body.number]).toEqual([200, free]);
    return { ...acct, free };
  }

  it('lists numbers for sale cheapest first, filtered by digits; the Idempotency-Key is required there too', async () => {
    const acct = await createAccount(t.app);
    const cheap = await stock(2, '99.50');
    const dear = await stock(1, '250');
    const missing = await t.api.get('/v1/available-numbers', { auth: acct.auth });
    expect([missing.status, missing.body]).toEqual([400, { error: 'Idempotency-Key header is required' }]);
    const headers = { 'idempotency-key': newKey('list') };
    const mine = (r: { number: string }) => [...cheap, ...dear].includes(r.number);
    const all = await t.api.get('/v1/available-numbers', { auth: acct.auth, headers, query: { limit: 200 } });
    expect(all.status).toBe(200);
    expect(all.body.results.filter(mine)).toEqual([
      { number: cheap[0], annual_price_ex_gst: 99.5 },
      { number: cheap[1], annual_price_ex_gst: 99.5 },
      { number: dear[0], annual_price_ex_gst: 250 },
    ]);
    const filtered = await t.api.get('/v1/available-numbers', { auth: acct.auth, headers, query: { contains: dear[0].slice(-6) } });
    expect(filtered.body).toEqual({ status: 'complete', results: [{ number: dear[0], annual_price_ex_gst: 250 }] });
    const one = await t.api.get('/v1/available-numbers', { auth: acct.auth, headers, query: { limit: 1 } });
    expect(one.body.results).toHaveLength(1);
    for (const [query, error] of [
      [{ contains: '04x' }, 'contains must be up to 11 digits'],
      [{ contains: '123456789012' }, 'contains must be up to 11 digits'],
      [{ limit: 0 }, 'limit must be between 1 and 200'],
      [{ limit: 'ten' }, 'limit must be between 1 and 200'],
    ] as const) {
      const res = await t.api.get('/v1/available-numbers', { auth: acct.auth, headers, query });
      expect([res.status, res.body]).toEqual([400, { error }]);
    }
  });

  it('buys a number for 12 months: an active dedicated sender at once, listed with its expiry, invoiced', async () => {
    const acct = await buyer();
    const [number] = await stock(1, '120');
    const local = `0${number.slice(2, 5)} ${number.slice(5, 8)} ${number.slice(8)}`;
    const res = await buyNumber(t, acct, { number: local });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      status: 'complete',
      state: 'fulfilled',
      purchase_id: expect.any(Number),
      number,
      purchased_at: expect.stringMatching(TIMESTAMP),
      expires_at: expect.stringMatching(TIMESTAMP),
      renews: true,
      amount_ex_gst: 120,
      gst: 12,
      amount_inc_gst: 132,
      card_last4: '4242',
      invoice_number: `INV-${String(res.body.purchase_id).padStart(8, '0')}`,
    });
    const bought = new Date(`${res.body.purchased_at.replace(' ', 'T')}Z`);
    const expires = new Date(`${res.body.expires_at.replace(' ', 'T')}Z`);
    expect(expires.getUTCFullYear() - bought.getUTCFullYear()).toBe(1);
    expect([expires.getUTCMonth(), expires.getUTCDate()]).toEqual([bought.getUTCMonth(), bought.getUTCDate()]);

    expect((await t.api.get('/v1/senders', { auth: acct.auth })).body.results).toContainEqual({
      sender: number,
      type: 'dedicated',
      status: 'active',
      label: '',
      is_default: false,
    });
    const sent = await t.api.post('/v1/messages', { auth: acct.auth, body: { messages: [{ to: '0412999301', message: 'From our new number', sender: number }] } });
    expect(sent.body.results[0]).toMatchObject({ status: 'success', sender: number });
    const listed = await t.api.get('/v1/dedicated-numbers', { auth: acct.auth });
    expect(listed.body).toEqual({
      status: 'complete',
      results: [
        { number: acct.free, kind: 'free', purchased_at: expect.stringMatching(TIMESTAMP), expires_at: null, renews: false, renewal_state: null },
        { number, kind: 'paid', purchased_at: res.body.purchased_at, expires_at: res.body.expires_at, renews: true, renewal_state: 'active' },
      ],
    });
    expect(await db.query(`SELECT status, account_id, kind FROM dedicated_numbers WHERE number = $1`, [number])).toEqual([
      { status: 'assigned', account_id: acct.accountId, kind: 'paid' },
    ]);
    const mail = await smtp.mailTo(acct.ownerEmail, /^Tax invoice/);
    expect(mail.text).toContain(`Item: Dedicated number ${number}, 12 months`);
    expect(mail.text).toContain('Total: A$132.00 inc. GST (GST A$12.00)');
    // Sold once: nobody else can buy it, and it is no longer listed.
    const other = await buyer();
    const again = await buyNumber(t, other, { number });
    expect([again.status, again.body]).toEqual([409, { error: 'This number is not available' }]);
    const forSale = await t.api.get('/v1/available-numbers', { auth: acct.auth, headers: { 'idempotency-key': newKey() }, query: { contains: number.slice(-8) } });
    expect(forSale.body.results).toEqual([]);
  });

  it('does not sell a number another account already uses as its dedicated sender (one account per dedicated number)', async () => {
    const [number] = await stock(1, '120');
    const holder = await createAccount(t.app, { senders: [] });
    await t.app.get(SendersService).add(holder.accountId, number); // an operator gave it out before it was sold
    const acct = await buyer();
    const res = await buyNumber(t, acct, { number });
    expect([res.status, res.body]).toEqual([409, { error: 'This number is not available' }]);
    expect(await db.query(`SELECT status, account_id FROM dedicated_numbers WHERE number = $1`, [number])).toEqual([{ status: 'available', account_id: null }]);
    expect(await db.query(`SELECT account_id, status FROM senders WHERE value = $1`, [number])).toEqual([{ account_id: holder.accountId, status: 'active' }]);
  });

  it('needs the free number claimed first, the key’s switch, the Idempotency-Key, and a valid number', async () => {
    const acct = await buyer({ claimFree: false });
    const [number] = await stock(1, '120');
    const noKey = await buyNumber(t, acct, { number }, null);
    expect([noKey.status, noKey.body]).toEqual([400, { error: 'Idempotency-Key header is required' }]);
    const first = await buyNumber(t, acct, { number });
    expect([first.status, first.body]).toEqual([403, { error: 'Claim your free dedicated number first' }]);
    const off = await createAccount(t.app);
    const switchOff = await buyNumber(t, off, { number });
    expect([switchOff.status, switchOff.body]).toEqual([403, { error: 'Purchases are not enabled for this API key' }]);

    const claimed = await buyer();
    for (const [body, status, error] of [
      [{}, 400, 'number is required'],
      [{ number: 'abc' }, 400, 'Invalid phone number format'],
      [{ number: 412345678 }, 400, 'Invalid phone number format'],
      [{ number, card_last4: 'x' }, 400, 'card_last4 must be 4 digits'],
      [{ number: '0499999999' }, 409, 'This number is not available'],
    ] as const) {
      const res = await buyNumber(t, claimed, body);
      expect([JSON.stringify(body), res.status, res.body]).toEqual([JSON.stringify(body), status, { error }]);
    }
    expect(await db.query(`SELECT status FROM dedicated_numbers WHERE number = $1`, [number])).toEqual([{ status: 'available' }]);
  });

  it('gives the number back to the inventory when the card is declined (402)', async () => {
    const acct = await buyer({ card: '4000000000000002' });
    const [number] = await stock(1, '120');
    const res = await buyNumber(t, acct, { number });
    expect([res.status, res.body]).toEqual([402, { error: 'Payment declined' }]);
    expect(await db.query(`SELECT status, account_id FROM dedicated_numbers WHERE number = $1`, [number])).toEqual([{ status: 'available', account_id: null }]);
    expect((await t.api.get('/v1/senders', { auth: acct.auth })).body.results.map((s: { sender: string }) => s.sender)).not.toContain(number);
  });

  it('sells a number once when two accounts race for it', async () => {
    // Set up one after the other: each claims the free number stocked for it (concurrent claims could swap them).
    const a = await buyer();
    const b = await buyer();
    const [number] = await stock(1, '120');
    const answers = await Promise.all([buyNumber(t, a, { number }), buyNumber(t, b, { number })]);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(answers.find((r) => r.status === 409)!.body).toEqual({ error: 'This number is not available' });
    const winner = answers[0].status === 200 ? a : b;
    expect(await db.query(`SELECT account_id FROM dedicated_numbers WHERE number = $1`, [number])).toEqual([{ account_id: winner.accountId }]);
    expect(await db.query(`SELECT count(*)::int AS n FROM purchases WHERE number = $1`, [number])).toEqual([{ n: 1 }]);
  });

  it('counts a number against the key’s daily limit', async () => {
    const acct = await buyer();
    await enablePurchases(t.app, acct, 200);
    const numbers = await stock(2, '120');
    expect((await buyNumber(t, acct, { number: numbers[0] })).status).toBe(200);
    const over = await buyNumber(t, acct, { number: numbers[1] });
    expect([over.status, over.body]).toEqual([403, { error: 'Daily purchase limit exceeded: $68.00 remaining' }]);
    expect(await db.query(`SELECT status FROM dedicated_numbers WHERE number = $1`, [numbers[1]])).toEqual([{ status: 'available' }]);
  });

  it('holds a number whose payment is held for review: reserved but not a sender until purchase:release; refunded, it goes back', async () => {
    const acct = await buyer({ card: '4000000000009235' });
    const [kept, refused] = await stock(2, '120');
    const senders = async () => (await t.api.get('/v1/senders', { auth: acct.auth })).body.results.map((s: { sender: string }) => s.sender);
    const held = await buyNumber(t, acct, { number: kept });
    expect([held.status, held.body.state, held.body.number, held.body.amount_inc_gst]).toEqual([200, 'held', kept, 132]);
    expect(await senders()).not.toContain(kept);
    expect(await db.query(`SELECT status, account_id FROM dedicated_numbers WHERE number = $1`, [kept])).toEqual([{ status: 'assigned', account_id: acct.accountId }]);
    expect((await runCli('purchase:release', '--id', String(held.body.purchase_id))).json?.state).toBe('fulfilled');
    expect(await senders()).toContain(kept);
    expect((await t.api.get('/v1/dedicated-numbers', { auth: acct.auth })).body.results.map((r: { number: string }) => r.number)).toContain(kept);

    const second = await buyNumber(t, acct, { number: refused });
    expect(second.body.state).toBe('held');
    expect((await runCli('purchase:refund', '--id', String(second.body.purchase_id))).json?.state).toBe('refunded');
    expect(await db.query(`SELECT status, account_id FROM dedicated_numbers WHERE number = $1`, [refused])).toEqual([{ status: 'available', account_id: null }]);
    expect(await senders()).not.toContain(refused);
  });
});
