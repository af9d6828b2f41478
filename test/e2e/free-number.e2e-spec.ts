import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DataSource } from 'typeorm';
import { runCli } from '../support/run-cli';
import { createAccount, startTestApp, TestAccount, TestApp } from '../support/test-app';

const ADDRESS = 'Level 2, 10 Smith St, Sydney NSW 2000';

/** The free dedicated number: the inventory loaded with numbers:import, one number per account ever, under concurrency too. */
describe('POST /v1/dedicated-numbers/free and numbers:import', () => {
  let t: TestApp;
  let db: DataSource;
  const dir = mkdtempSync(path.join(tmpdir(), 'numbers-'));
  let series = 0;

  beforeAll(async () => {
    // Room for ten requests of one account at once (the in-flight limit would answer some 429).
    t = await startTestApp({ inflightLimit: 20 });
    db = t.app.get(DataSource);
  });
  afterAll(() => t.close());

  /** Loads `count` fresh numbers into the inventory through the CLI; answers them normalised. */
  async function stock(count: number, price = '120.00'): Promise<string[]> {
    const base = 40_000_000 + ++series * 1000;
    const numbers = Array.from({ length: count }, (_, i) => `0${base + i}`.replace(/^0(\d{8})$/, '04$1'));
    const file = path.join(dir, `stock-${series}.csv`);
    writeFileSync(file, ['number,annual_price_ex_gst', ...numbers.map((n) => `${n},${price}`)].join('\n'));
    const res = await runCli('numbers:import', '--file', file);
    expect(res.json).toMatchObject({ added: count });
    return numbers.map((n) => `61${n.slice(1)}`);
  }
  const claim = (acct: TestAccount, body: unknown) => t.api.post('/v1/dedicated-numbers/free', { auth: acct.auth, body });
  const available = async () => (await db.query(`SELECT count(*)::int AS n FROM dedicated_numbers WHERE status = 'available'`))[0].n as number;

  it('numbers:import adds normalised numbers set-based and reports what it skipped and refused, by line', async () => {
    const file = path.join(dir, 'mixed.csv');
    writeFileSync(
      file,
      ['number,annual_price_ex_gst', '0499 000 001,120', '+61499000002,$99.50', '61499000001,130', 'not a number,10', '0499000003,ten', '02 9999 9999,10'].join('\n'),
    );
    const first = await runCli('numbers:import', '--file', file);
    expect(first.code).toBe(0);
    expect(first.json).toEqual({
      file,
      rows: 6,
      added: 2,
      skipped: 1,
      invalid: 3,
      errors: [
        { line: 5, reason: 'Invalid phone number format' },
        { line: 6, reason: 'annual_price_ex_gst must be an amount in dollars, such as 120 or 99.50, up to 100000' },
        { line: 7, reason: 'Invalid phone number format' },
      ],
    });
    expect(await db.query(`SELECT number, annual_price_cents, status, account_id, kind FROM dedicated_numbers WHERE number LIKE '614990000%' ORDER BY number`)).toEqual([
      { number: '61499000001', annual_price_cents: 12000, status: 'available', account_id: null, kind: null },
      { number: '61499000002', annual_price_cents: 9950, status: 'available', account_id: null, kind: null },
    ]);
    // Importing again adds nothing and keeps the prices.
    expect((await runCli('numbers:import', '--file', file)).json).toMatchObject({ added: 0, skipped: 3, invalid: 3 });

    const bad = path.join(dir, 'bad.csv');
    writeFileSync(bad, 'msisdn,price\n0499000009,1\n');
    const results = await Promise.all([runCli('numbers:import', '--file', bad), runCli('numbers:import', '--file', path.join(dir, 'missing.csv')), runCli('numbers:import')]);
    expect(results.map((r) => [r.code, r.stderr.trim()])).toEqual([
      [1, 'error: The header row must name the columns number and annual_price_ex_gst'],
      [2, expect.stringMatching(/^error: cannot read --file .*missing\.csv: ENOENT/)],
      [2, 'error: --file is required'],
    ]);
    // Leave the inventory as the other tests expect it: only numbers they stock themselves.
    await db.query(`DELETE FROM dedicated_numbers WHERE number LIKE '614990000%'`);
  });

  it('claims one number for the service address: an active dedicated sender at once; a second claim is 409', async () => {
    const [number] = await stock(1);
    const acct = await createAccount(t.app, { credits: 5, senders: ['Brand'] });
    const res = await claim(acct, { service_address: ADDRESS });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'complete', number, type: 'dedicated', service_address: ADDRESS, claimed_at: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/) });
    expect((await t.api.get('/v1/senders', { auth: acct.auth })).body.results).toEqual([
      { sender: 'Brand', type: 'alpha', status: 'active', label: '', is_default: false },
      { sender: number, type: 'dedicated', status: 'active', label: '', is_default: false },
    ]);
    const sent = await t.api.post('/v1/messages', { auth: acct.auth, body: { messages: [{ to: '0412999201', message: 'Reply to us', sender: number }] } });
    expect(sent.body.results[0]).toMatchObject({ status: 'success', sender: number });
    expect(await db.query(`SELECT status, account_id, kind FROM dedicated_numbers WHERE number = $1`, [number])).toEqual([
      { status: 'assigned', account_id: acct.accountId, kind: 'free' },
    ]);
    expect(await db.query(`SELECT street, suburb, state, postcode, user_id FROM free_number_claims WHERE account_id = $1`, [acct.accountId])).toEqual([
      { street: 'Level 2, 10 Smith St', suburb: 'Sydney', state: 'NSW', postcode: '2000', user_id: null },
    ]);
    expect((await db.query(`SELECT action, detail FROM audit_log WHERE account_id = $1`, [acct.accountId]))[0]).toEqual({
      action: 'dedicated_number.free_claimed',
      detail: `${number} for ${ADDRESS}`,
    });

    const again = await claim(acct, { service_address: ADDRESS });
    expect([again.status, again.body]).toEqual([409, { error: 'The free dedicated number has already been claimed for this account' }]);
    // It cannot be removed as a sender: it ends with its subscription.
    const removal = await t.api.delete('/v1/senders', { auth: acct.auth, body: { sender: number } });
    expect([removal.status, removal.body]).toEqual([409, { error: 'Dedicated numbers cannot be removed: a dedicated number ends with its subscription' }]);
  });

  it('gives one number to one account whatever races: ten concurrent claims of one account, and accounts racing each other', async () => {
    const numbers = await stock(4);
    const acct = await createAccount(t.app);
    const answers = await Promise.all(Array.from({ length: 10 }, () => claim(acct, { service_address: ADDRESS })));
    expect(answers.map((a) => a.status).sort()).toEqual([200, ...Array(9).fill(409)]);
    for (const refused of answers.filter((a) => a.status === 409)) expect(refused.body).toEqual({ error: 'The free dedicated number has already been claimed for this account' });
    expect(await db.query(`SELECT count(*)::int AS n FROM dedicated_numbers WHERE account_id = $1`, [acct.accountId])).toEqual([{ n: 1 }]);

    const racers = await Promise.all(Array.from({ length: 3 }, () => createAccount(t.app)));
    const won = await Promise.all(racers.map((r) => claim(r, { service_address: ADDRESS })));
    expect(won.map((w) => w.status)).toEqual([200, 200, 200]);
    const assigned = [answers.find((a) => a.status === 200)!.body.number, ...won.map((w) => w.body.number)];
    expect(new Set(assigned).size).toBe(4);
    expect(assigned.sort()).toEqual(numbers.sort());
    expect(await available()).toBe(0);
    const late = await claim(await createAccount(t.app), { service_address: ADDRESS });
    expect([late.status, late.body]).toEqual([409, { error: 'No dedicated number is available right now. Please try again later or contact support.' }]);
  });

  it('takes the address as one line or as fields, and refuses bad ones with their texts (nothing assigned)', async () => {
    await stock(1);
    for (const [address, error] of [
      [undefined, 'service_address is required'],
      ['', 'service_address is required'],
      [42, 'service_address must be a string or an object'],
      [['10 Smith St'], 'service_address must be a string or an object'],
      ['10 Smith St, Sydney NSW', 'service_address must include a 4-digit postcode'],
      ['10 Smith St, Sydney NSW 200', 'service_address must include a 4-digit postcode'],
      ['10 Smith St, Sydney 2000', 'service_address must include a state or territory: NSW, VIC, QLD, WA, SA, TAS, ACT or NT'],
      ['10 Smith St, Auckland NZ 1010', 'service_address must include a state or territory: NSW, VIC, QLD, WA, SA, TAS, ACT or NT'],
      ['NSW 2000', 'service_address must include a street address'],
      [`${'x'.repeat(200)} NSW 2000`, 'service_address must be at most 200 characters'],
      [{ street: '', state: 'VIC', postcode: '3000' }, 'service_address must include a street address'],
      [{ street: '1 Collins St', state: 'Victoria', postcode: '3000' }, 'service_address must include a state or territory: NSW, VIC, QLD, WA, SA, TAS, ACT or NT'],
      [{ street: '1 Collins St', state: 'VIC', postcode: 3000 }, 'service_address must be a string or an object'],
    ] as Array<[unknown, string]>) {
      const res = await claim(await createAccount(t.app), address === undefined ? {} : { service_address: address });
      expect([address, res.status, res.body]).toEqual([address, 400, { error }]);
    }
    // No body at all (a client that forgot it) is the same refusal, never a 500.
    const bodiless = await t.app.inject({ method: 'POST', url: '/v1/dedicated-numbers/free', headers: { authorization: (await createAccount(t.app)).auth } });
    expect([bodiless.statusCode, bodiless.json()]).toEqual([400, { error: 'service_address is required' }]);
    expect(await available()).toBe(1);
    const fields = await claim(await createAccount(t.app), { service_address: { street: '1 Collins St', suburb: 'Melbourne', state: 'vic', postcode: '3000' } });
    expect(fields.body).toMatchObject({ status: 'complete', service_address: '1 Collins St, Melbourne VIC 3000' });
  });

  it('keeps each account to its own claim', async () => {
    const [number] = await stock(1);
    const mine = await createAccount(t.app);
    const theirs = await createAccount(t.app);
    expect((await claim(mine, { service_address: ADDRESS })).body.number).toBe(number);
    expect((await t.api.get('/v1/senders', { auth: theirs.auth })).body.results.map((s: { sender: string }) => s.sender)).toEqual(['TestBrand']);
    expect((await t.api.delete('/v1/senders', { auth: theirs.auth, body: { sender: number } })).body).toEqual({ error: 'Sender not found' });
    // The other account has not claimed: it is told the inventory is empty, not that a claim exists.
    expect((await claim(theirs, { service_address: ADDRESS })).body).toEqual({ error: 'No dedicated number is available right now. Please try again later or contact support.' });
  });
});
