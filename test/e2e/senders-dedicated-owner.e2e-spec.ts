import { DataSource } from 'typeorm';
import { UnitOfWork } from '../../src/database/unit-of-work';
import { SendersService } from '../../src/senders/senders.service';
import { createAccount, startTestApp, TestApp } from '../support/test-app';

const ADDRESS = 'Level 2, 10 Smith St, Sydney NSW 2000';

/**
 * A dedicated number receives its account's replies (inbound routing reads the accounts a number is
 * active on), so it is active on one account at a time: the operator's adds refuse a number another
 * account holds, and the inventory never hands out a number an account already uses.
 */
describe(`${SendersService.name}: one account per dedicated number`, () => {
  let t: TestApp;
  let db: DataSource;
  let senders: SendersService;
  let next = 0;

  beforeAll(async () => {
    t = await startTestApp();
    db = t.app.get(DataSource);
    senders = t.app.get(SendersService);
  });
  afterAll(() => t.close());

  /** A number no earlier test used, local form and stored form. */
  const fresh = () => {
    const digits = String(70_000_000 + ++next);
    return { local: `04${digits}`, stored: `614${digits}` };
  };
  const bare = () => createAccount(t.app, { senders: [] });
  const rowsOf = (value: string) => db.query(`SELECT account_id, type, status FROM senders WHERE value = $1 ORDER BY id`, [value]);

  it('refuses a dedicated number active on another account, on add and on re-activation, and writes nothing', async () => {
    const [a, b] = [await bare(), await bare()];
    const n = fresh();
    await senders.add(a.accountId, n.local);
    await expect(senders.add(b.accountId, n.local, 'dedicated')).rejects.toThrow(
      `${n.stored} is already an active dedicated sender on account ${a.accountId}; a dedicated number belongs to one account at a time (remove it there first)`,
    );
    expect(await rowsOf(n.stored)).toEqual([{ account_id: a.accountId, type: 'dedicated', status: 'active' }]);

    // Moved to B once A let it go; A's old row cannot be re-activated while B has it.
    await senders.remove(a.accountId, n.local);
    await senders.add(b.accountId, `+${n.stored}`);
    await expect(senders.add(a.accountId, n.stored)).rejects.toThrow(`${n.stored} is already an active dedicated sender on account ${b.accountId};`);
    expect(await rowsOf(n.stored)).toEqual([
      { account_id: a.accountId, type: 'dedicated', status: 'removed' },
      { account_id: b.accountId, type: 'dedicated', status: 'active' },
    ]);
    // The holder re-adding its own number is no clash.
    expect((await senders.add(b.accountId, n.local)).status).toBe('active');
  });

  it('refuses sharing another account’s dedicated number and making another’s shared number dedicated; shared numbers stay shareable', async () => {
    const [a, b, c] = [await bare(), await bare(), await bare()];
    const dedicated = fresh();
    await senders.add(a.accountId, dedicated.local);
    await expect(senders.add(b.accountId, dedicated.local, 'shared')).rejects.toThrow(`${dedicated.stored} is already an active dedicated sender on account ${a.accountId};`);

    const shared = fresh();
    await senders.add(a.accountId, shared.local, 'shared');
    await senders.add(b.accountId, shared.local, 'shared');
    await expect(senders.add(c.accountId, shared.local)).rejects.toThrow(`${shared.stored} is already an active shared sender on account ${a.accountId};`);
    expect(await rowsOf(shared.stored)).toEqual([
      { account_id: a.accountId, type: 'shared', status: 'active' },
      { account_id: b.accountId, type: 'shared', status: 'active' },
    ]);
  });

  it('refuses a number the inventory has assigned to another account (its free number)', async () => {
    const [a, b] = [await bare(), await bare()];
    const n = fresh();
    await db.query(`INSERT INTO dedicated_numbers (number, annual_price_cents) VALUES ($1, 0)`, [n.stored]);
    const claimed = await t.api.post('/v1/dedicated-numbers/free', { auth: a.auth, body: { service_address: ADDRESS } });
    expect([claimed.status, claimed.body.number]).toEqual([200, n.stored]);
    // Even with A's sender gone (say, removed by hand), the inventory still says whose number it is.
    await senders.remove(a.accountId, n.stored);
    await expect(senders.add(b.accountId, n.local)).rejects.toThrow(
      `${n.stored} is assigned to account ${a.accountId} in the dedicated number inventory; a dedicated number belongs to one account at a time`,
    );
    expect(await rowsOf(n.stored)).toEqual([{ account_id: a.accountId, type: 'dedicated', status: 'removed' }]);
  });

  it('never lists or hands out an inventory number an account already uses as its dedicated number', async () => {
    const [a, b] = [await bare(), await bare()];
    const [used, spare] = [fresh(), fresh()];
    // The operator gave A the number before it was imported; it is the cheapest in stock.
    await senders.add(a.accountId, used.local);
    await db.query(`DELETE FROM dedicated_numbers WHERE status = 'available'`);
    await db.query(`INSERT INTO dedicated_numbers (number, annual_price_cents) VALUES ($1, 0), ($2, 100)`, [used.stored, spare.stored]);
    const headers = { 'idempotency-key': `list-${used.stored}` };
    const listed = await t.api.get('/v1/available-numbers', { auth: b.auth, headers, query: { limit: 200 } });
    expect(listed.body.results.map((r: { number: string }) => r.number)).toEqual([spare.stored]);
    const claimed = await t.api.post('/v1/dedicated-numbers/free', { auth: b.auth, body: { service_address: ADDRESS } });
    expect([claimed.status, claimed.body.number]).toEqual([200, spare.stored]);
    expect(await rowsOf(used.stored)).toEqual([{ account_id: a.accountId, type: 'dedicated', status: 'active' }]);
  });

  it('lets one of two simultaneous adds of a number to two accounts succeed: the second waits for the first and is refused', async () => {
    const [a, b] = [await bare(), await bare()];
    const n = fresh();
    let commitA!: () => void;
    const aHolds = new Promise<void>((resolve) => (commitA = resolve));
    let aAdded!: () => void;
    const aWritten = new Promise<void>((resolve) => (aAdded = resolve));
    const first = t.app.get(UnitOfWork).run(async (tx) => {
      await senders.add(a.accountId, n.local, undefined, tx);
      aAdded();
      await aHolds; // A's transaction stays open: its row is written, not committed
    });
    await aWritten;
    let settled = false;
    const second = senders.add(b.accountId, n.local).finally(() => (settled = true));
    second.catch(() => undefined);
    await new Promise((r) => setTimeout(r, 300));
    expect(settled).toBe(false);
    commitA();
    await first;
    await expect(second).rejects.toThrow(`${n.stored} is already an active dedicated sender on account ${a.accountId};`);
    expect(await rowsOf(n.stored)).toEqual([{ account_id: a.accountId, type: 'dedicated', status: 'active' }]);
  });
});
