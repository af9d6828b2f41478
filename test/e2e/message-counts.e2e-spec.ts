import { DataSource } from 'typeorm';
import { uuid7 } from '../../src/common/ids/uuid7';
import { FixedClock } from '../support/fixed-clock';
import { addBuckets, bucketStart, partitionName } from '../../src/database/partitioning/partition-bounds';
import { PartitionMaintenanceRepository } from '../../src/partitions/partition-maintenance.repository';
import { PartitionMaintenanceService } from '../../src/partitions/partition-maintenance.service';
import { PARTITIONED_TABLES } from '../../src/partitions/partitioned-tables';
import { createAccount, startTestApp, TestAccount, TestApp } from '../support/test-app';

/**
 * The unfiltered history's `total` comes from the per-account month counts (message_counts) the triggers on
 * `messages` keep: it must equal an exact count through sends, concurrent sends, cancellations, deletes and
 * the drop of a month partition.
 */
describe('message counts behind the history total', () => {
  let t: TestApp;
  let ds: DataSource;

  beforeAll(async () => {
    // No periodic work in this process: the partition maintenance is run here, with a clock of the test's.
    t = await startTestApp({ appRole: 'api' });
    ds = t.app.get(DataSource);
  });
  afterAll(() => t.close());

  const send = (acct: TestAccount, n: number, extra: Record<string, unknown> = {}) =>
    t.api.post('/v1/messages', {
      auth: acct.auth,
      body: { messages: Array.from({ length: n }, (_, i) => ({ to: `04120${String(i).padStart(5, '0')}`, message: `m${i}`, sender: 'Brand', ...extra })) },
    });
  const apiTotal = async (acct: TestAccount) => (await t.api.get('/v1/messages', { auth: acct.auth })).body.total as number;
  const exact = async (acct: TestAccount) => (await ds.query(`SELECT count(*)::int AS n FROM messages WHERE account_id = $1`, [acct.accountId]))[0].n as number;

  it('answers the exact count after sends, concurrent sends of one account and a cancellation', async () => {
    const acct = await createAccount(t.app, { credits: 1000, senders: ['Brand'] });
    const other = await createAccount(t.app, { credits: 1000, senders: ['Brand'] });
    expect(await apiTotal(acct)).toBe(0);
    expect((await send(acct, 3)).status).toBe(200);
    await send(other, 2);
    expect([await apiTotal(acct), await exact(acct)]).toEqual([3, 3]);
    // Concurrent sends of one account (and another's beside them) each count once.
    await Promise.all([send(acct, 7), send(acct, 5), send(other, 4), send(acct, 1)]);
    expect([await apiTotal(acct), await exact(acct)]).toEqual([16, 16]);
    expect([await apiTotal(other), await exact(other)]).toEqual([6, 6]);
    // A cancelled message stays in the history, and in the count.
    const later = new Date(Date.now() + 86_400_000).toISOString().slice(0, 19);
    const scheduled = await send(acct, 1, { scheduled_for: later });
    const id = scheduled.body.results[0].message_id as string;
    expect((await t.api.delete('/v1/messages', { auth: acct.auth, body: { message_id: id } })).status).toBe(200);
    expect([await apiTotal(acct), await exact(acct)]).toEqual([17, 17]);
    // A filtered total is still an exact count of what the filter matches.
    expect((await t.api.get('/v1/messages', { auth: acct.auth, query: { status: 'cancelled' } })).body.total).toBe(1);
  });

  it('counts each message in the month of its id, whichever month one statement writes into', async () => {
    const acct = await createAccount(t.app, { credits: 1000, senders: ['Brand'] });
    await send(acct, 1);
    const [{ send_id: sendId }] = await ds.query(`SELECT send_id FROM messages WHERE account_id = $1`, [acct.accountId]);
    const ids = [uuid7(Date.UTC(2025, 0, 31, 23, 59, 59, 999)), uuid7(Date.UTC(2025, 1, 1)), uuid7(Date.UTC(2025, 1, 14)), uuid7()];
    await ds.query(
      `INSERT INTO messages (id, account_id, send_id, to_number, sender, sender_type, body, status, encoding, parts, cost, is_test, dispatch_at)
       SELECT id, $2, $3, '61412345678', 'Brand', 'alpha', 'Hi', 'pending', 'gsm7', 1, 100, false, now() FROM unnest($1::uuid[]) AS id`,
      [ids, acct.accountId, sendId],
    );
    const thisMonth = bucketStart(new Date(), 'month').toISOString().slice(0, 10);
    const counts = await ds.query(`SELECT to_char(month, 'YYYY-MM-DD') AS month, messages::int FROM message_counts WHERE account_id = $1 ORDER BY month`, [acct.accountId]);
    expect(counts).toEqual([
      { month: '2025-01-01', messages: 1 },
      { month: '2025-02-01', messages: 2 },
      { month: thisMonth, messages: 2 },
    ]);
    expect([await apiTotal(acct), await exact(acct)]).toEqual([5, 5]);
  });

  it('follows deletes, and drops a month of counts with its partition', async () => {
    const acct = await createAccount(t.app, { credits: 1000, senders: ['Brand'] });
    await send(acct, 4);
    await ds.query(`DELETE FROM messages WHERE id = (SELECT id FROM messages WHERE account_id = $1 LIMIT 1)`, [acct.accountId]);
    expect([await apiTotal(acct), await exact(acct)]).toEqual([3, 3]);

    // 14 months on, this month is wholly past the 13 months' retention: the maintenance drops its partition.
    const thisMonth = bucketStart(new Date(), 'month');
    const report = await new PartitionMaintenanceService(
      new PartitionMaintenanceRepository(ds),
      new FixedClock(addBuckets(thisMonth, 'month', 14)),
      t.config,
      PARTITIONED_TABLES.filter((p) => p.table === 'messages'),
    ).run();
    expect(report.failed).toEqual([]);
    expect(report.dropped).toContain(partitionName('messages', 'month', thisMonth));
    expect([await apiTotal(acct), await exact(acct)]).toEqual([0, 0]);
    expect(await ds.query(`SELECT count(*)::int AS n FROM message_counts WHERE account_id = $1`, [acct.accountId])).toEqual([{ n: 0 }]);
  });

  it('goes with its account', async () => {
    const acct = await createAccount(t.app, { credits: 1000, senders: ['Brand'] });
    await send(acct, 2);
    await ds.query(`DELETE FROM accounts WHERE id = $1`, [acct.accountId]);
    expect(await ds.query(`SELECT count(*)::int AS n FROM message_counts WHERE account_id = $1`, [acct.accountId])).toEqual([{ n: 0 }]);
  });
});
