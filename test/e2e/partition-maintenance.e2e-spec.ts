import { DataSource } from 'typeorm';
import { Clock } from '../../src/common/time/clock';
import { FixedClock } from '../support/fixed-clock';
import { convertToPartitioned } from '../../src/database/partitioning/convert-to-partitioned';
import { addBuckets, bucketStart, oldPartitionName, partitionName, uuidAt } from '../../src/database/partitioning/partition-bounds';
import { PartitionMaintenanceRepository } from '../../src/partitions/partition-maintenance.repository';
import { PartitionMaintenanceService } from '../../src/partitions/partition-maintenance.service';
import { PARTITIONED_TABLES, type PartitionedTable } from '../../src/partitions/partitioned-tables';
import { createAccount, startTestApp, TestAccount, TestApp } from '../support/test-app';

/** The periodic partition maintenance on real PostgreSQL, over scratch tables of this file's database. */
describe(PartitionMaintenanceService.name, () => {
  let t: TestApp;
  let ds: DataSource;
  let acct: TestAccount;

  beforeAll(async () => {
    t = await startTestApp({ appRole: 'api', messageRetentionMonths: 13, webhookRetentionDays: 30 });
    ds = t.app.get(DataSource);
    acct = await createAccount(t.app, { credits: 10, senders: ['Brand'] });
  });
  afterAll(() => t.close());

  const partitionsOf = async (table: string): Promise<string[]> =>
    (await ds.query(`SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = $1::regclass ORDER BY 1`, [table])).map(
      (r: { relname: string }) => r.relname,
    );

  const service = (clock: Clock, tables: PartitionedTable[]) => new PartitionMaintenanceService(new PartitionMaintenanceRepository(ds), clock, t.config, tables);

  it('makes the buckets ahead and drops exactly the months wholly past retention, keeping the catch-all', async () => {
    await ds.query(`CREATE TABLE scratch_msgs (id uuid NOT NULL, account_id integer NOT NULL REFERENCES accounts(id) ON DELETE CASCADE, body text NOT NULL,
                      PRIMARY KEY (id)) PARTITION BY RANGE (id)`);
    await ds.query(`CREATE INDEX scratch_msgs_account_idx ON scratch_msgs (account_id, id)`);
    const month = (y: number, m: number) => Date.UTC(y, m - 1, 1);
    await ds.query(`CREATE TABLE ${oldPartitionName('scratch_msgs')} PARTITION OF scratch_msgs FOR VALUES FROM (MINVALUE) TO ('${uuidAt(month(2025, 8))}')`);
    for (const [y, m] of [
      [2025, 8],
      [2025, 9],
      [2025, 10],
      [2025, 11],
    ]) {
      const name = `scratch_msgs_p${y}_${String(m).padStart(2, '0')}`;
      await ds.query(`CREATE TABLE ${name} PARTITION OF scratch_msgs FOR VALUES FROM ('${uuidAt(month(y, m))}') TO ('${uuidAt(Date.UTC(y, m, 1))}')`);
      await ds.query(`INSERT INTO scratch_msgs VALUES ($1, $2, 'old')`, [uuidAt(month(y, m) + 1000).replace(/0000$/, '0001'), acct.accountId]);
    }
    // A legacy (non-v7) id sorting below every bucket lives in the catch-all, which retention never drops.
    await ds.query(`INSERT INTO scratch_msgs VALUES ('00000000-1111-4111-8111-111111111111', $1, 'legacy')`, [acct.accountId]);

    const spec: PartitionedTable = { table: 'scratch_msgs', key: { column: 'id', kind: 'uuid7' }, bucket: 'month', ahead: 2, retention: 'messageRetentionMonths' };
    const report = await service(new FixedClock(new Date('2026-11-27T10:00:00Z')), [spec]).run();

    // 13 months before November 2026 starts October 2025: August and September are wholly older.
    expect(report).toEqual({
      ran: true,
      created: ['scratch_msgs_p2026_11', 'scratch_msgs_p2026_12', 'scratch_msgs_p2027_01'],
      dropped: ['scratch_msgs_p2025_08', 'scratch_msgs_p2025_09'],
      failed: [],
    });
    expect(await partitionsOf('scratch_msgs')).toEqual([
      'scratch_msgs_p2025_10',
      'scratch_msgs_p2025_11',
      'scratch_msgs_p2026_11',
      'scratch_msgs_p2026_12',
      'scratch_msgs_p2027_01',
      'scratch_msgs_p_old',
    ]);
    expect((await ds.query(`SELECT body FROM scratch_msgs ORDER BY id`)).map((r: { body: string }) => r.body)).toEqual(['legacy', 'old', 'old']);
    // The made partitions carry the parent's index and foreign key (ATTACH builds and clones them).
    const [{ n }] = await ds.query(`SELECT count(*)::int AS n FROM pg_indexes WHERE tablename = 'scratch_msgs_p2026_12'`);
    expect(n).toBe(2);
    await expect(ds.query(`INSERT INTO scratch_msgs VALUES ($1, -1, 'x')`, [uuidAt(month(2026, 12) + 5).replace(/0000$/, '0001')])).rejects.toThrow(
      'violates foreign key constraint',
    );

    // A second run has nothing to do.
    expect(await service(new FixedClock(new Date('2026-11-27T11:00:00Z')), [spec]).run()).toEqual({ ran: true, created: [], dropped: [], failed: [] });
  });

  it('beside a DEFAULT partition, moves the legacy rows of a new month out of it before the ATTACH and drops old months with a plain DETACH', async () => {
    await ds.query(`CREATE TABLE scratch_legacy (id uuid NOT NULL, body text NOT NULL, PRIMARY KEY (id)) PARTITION BY RANGE (id)`);
    const month = (y: number, m: number) => Date.UTC(y, m - 1, 1);
    await ds.query(`CREATE TABLE ${oldPartitionName('scratch_legacy')} PARTITION OF scratch_legacy FOR VALUES FROM (MINVALUE) TO ('${uuidAt(month(2025, 9))}')`);
    await ds.query(`CREATE TABLE scratch_legacy_p2025_09 PARTITION OF scratch_legacy FOR VALUES FROM ('${uuidAt(month(2025, 9))}') TO ('${uuidAt(month(2025, 10))}')`);
    await ds.query(`CREATE TABLE scratch_legacy_p_legacy PARTITION OF scratch_legacy DEFAULT`);
    // A version 4 id whose random prefix falls inside December 2026 (not yet a partition: it sits in the default),
    // one far above every month, and a v7 row in September 2025 (past 13 months' retention in November 2026).
    const december = uuidAt(month(2026, 12) + 86_400_000); // xxxxxxxx-xxxx-0000-0000-000000000000
    const inDecember = `${december.slice(0, 14)}4abc-8def-${december.slice(24)}`;
    await ds.query(`INSERT INTO scratch_legacy VALUES ($1, 'legacy in December'), ('ffffffff-1111-4111-8111-111111111111', 'legacy above'), ($2, 'September')`, [
      inDecember,
      uuidAt(month(2025, 9) + 1000).replace(/0000$/, '0001'),
    ]);
    const spec: PartitionedTable = { table: 'scratch_legacy', key: { column: 'id', kind: 'uuid7' }, bucket: 'month', ahead: 1, retention: 'messageRetentionMonths' };

    const report = await service(new FixedClock(new Date('2026-11-27T10:00:00Z')), [spec]).run();

    expect(report).toEqual({ ran: true, created: ['scratch_legacy_p2026_11', 'scratch_legacy_p2026_12'], dropped: ['scratch_legacy_p2025_09'], failed: [] });
    const where = await ds.query(`SELECT tableoid::regclass::text AS part, body FROM scratch_legacy ORDER BY body`);
    expect(where).toEqual([
      { part: 'scratch_legacy_p_legacy', body: 'legacy above' },
      { part: 'scratch_legacy_p2026_12', body: 'legacy in December' },
    ]);
    expect(await partitionsOf('scratch_legacy')).toEqual(['scratch_legacy_p2026_11', 'scratch_legacy_p2026_12', 'scratch_legacy_p_legacy', 'scratch_legacy_p_old']);
  });

  it('drops day buckets past WEBHOOK_RETENTION_DAYS on a timestamptz key, while a transaction inserts into the current day', async () => {
    await ds.query(`CREATE TABLE scratch_events (id bigserial, created_at timestamptz NOT NULL DEFAULT now(), PRIMARY KEY (id, created_at)) PARTITION BY RANGE (created_at)`);
    await ds.query(`CREATE TABLE scratch_events_p_old PARTITION OF scratch_events FOR VALUES FROM (MINVALUE) TO ('2026-10-20T00:00:00Z')`);
    const spec: PartitionedTable = { table: 'scratch_events', key: { column: 'created_at', kind: 'timestamptz' }, bucket: 'day', ahead: 1, retention: 'webhookRetentionDays' };
    const first = await service(new FixedClock(new Date('2026-10-20T05:00:00Z')), [spec]).run();
    expect(first.created).toEqual(['scratch_events_p2026_10_20', 'scratch_events_p2026_10_21']);

    // 30 days on, October 20 is not yet wholly past retention.
    const clock = new FixedClock(new Date('2026-11-19T05:00:00Z'));
    const made = await service(clock, [spec]).run();
    expect(made.dropped).toEqual([]);
    const runner = ds.createQueryRunner();
    await runner.connect();
    try {
      await runner.startTransaction();
      await runner.query(`INSERT INTO scratch_events (created_at) VALUES ('2026-11-20T05:00:01Z')`);
      clock.at = new Date('2026-11-20T05:00:00Z');
      // The open transaction touched the parent, so DETACH CONCURRENTLY waits for it: the step times out and is retried next run.
      const blocked = await service(clock, [spec]).run();
      await runner.query(`INSERT INTO scratch_events (created_at) VALUES ('2026-11-20T06:00:01Z')`);
      await runner.commitTransaction();
      expect(blocked.failed.length + blocked.dropped.length).toBeGreaterThan(0);
    } finally {
      await runner.release();
    }
    const after = await service(clock, [spec]).run();
    expect(after.failed).toEqual([]);
    const names = await partitionsOf('scratch_events');
    expect(names).not.toContain('scratch_events_p2026_10_20');
    expect(names).toContain('scratch_events_p2026_10_21');
    expect(names).toContain('scratch_events_p_old');
    expect((await ds.query(`SELECT count(*)::int AS n FROM scratch_events`))[0].n).toBe(2);
  });

  it('converts inbound_messages and link_click_buckets: monthly partitions from now to 3 ahead and the catch-all below', async () => {
    expect(await partitionsOf('inbound_messages')).toEqual(expect.arrayContaining(['inbound_messages_p_old']));
    expect((await partitionsOf('inbound_messages')).length).toBeGreaterThanOrEqual(5);
    expect((await partitionsOf('link_click_buckets')).length).toBeGreaterThanOrEqual(5);
  });

  it("partitions webhook events by the day in their ids, keeps each attempt in its event's day, and drops a day of both past WEBHOOK_RETENTION_DAYS", async () => {
    const today = bucketStart(new Date(), 'day');
    const day = Math.floor(today.getTime() / 86_400_000);
    const [event] = await ds.query(`INSERT INTO webhook_events (account_id, kind, body) VALUES ($1, 'status', '{}') RETURNING id::text, tableoid::regclass::text AS part`, [
      acct.accountId,
    ]);
    // The id carries today's UTC day above the sequence, and names today's partition.
    expect(BigInt(event.id) >> 32n).toBe(BigInt(day));
    expect(event.part).toBe(partitionName('webhook_events', 'day', today));
    const [attempt] = await ds.query(
      `INSERT INTO webhook_attempts (event_id, account_id, kind, url, attempt, error, duration_ms, delivered)
       VALUES ($1, $2, 'status', 'https://example.test/hook', 1, '', 5, true) RETURNING tableoid::regclass::text AS part`,
      [event.id, acct.accountId],
    );
    expect(attempt.part).toBe(partitionName('webhook_attempts', 'day', today));
    // Each attempt number of an event once, as before the partitioning.
    await expect(
      ds.query(
        `INSERT INTO webhook_attempts (event_id, account_id, kind, url, attempt, error, duration_ms, delivered) VALUES ($1, $2, 'status', 'https://example.test/hook', 1, '', 5, true)`,
        [event.id, acct.accountId],
      ),
    ).rejects.toThrow('duplicate key value violates unique constraint');
    // 14 days ahead of today for both, and the catch-all below, as the migration made them.
    for (const table of ['webhook_events', 'webhook_attempts']) {
      const names = await partitionsOf(table);
      expect(names).toContain(oldPartitionName(table));
      expect(names).toContain(partitionName(table, 'day', addBuckets(today, 'day', 14)));
    }
    // A lookup by id reads one partition.
    const plan: Array<{ 'QUERY PLAN': string }> = await ds.query(`EXPLAIN SELECT state FROM webhook_events WHERE id = ${event.id}`);
    expect(plan.map((r) => r['QUERY PLAN']).join('\n')).toContain(partitionName('webhook_events', 'day', today));
    expect(plan.map((r) => r['QUERY PLAN']).join('\n')).not.toContain(oldPartitionName('webhook_events'));

    // 30 days after today ends, today's day of both tables is dropped, and the event and its attempt with it.
    const tables = PARTITIONED_TABLES.filter((p) => p.table.startsWith('webhook_'));
    const report = await service(new FixedClock(addBuckets(today, 'day', 31)), tables).run();
    expect(report.failed).toEqual([]);
    expect(report.dropped).toEqual(expect.arrayContaining([partitionName('webhook_events', 'day', today), partitionName('webhook_attempts', 'day', today)]));
    expect(await ds.query(`SELECT count(*)::int AS n FROM webhook_events WHERE id = $1`, [event.id])).toEqual([{ n: 0 }]);
    expect(await ds.query(`SELECT count(*)::int AS n FROM webhook_attempts WHERE event_id = $1`, [event.id])).toEqual([{ n: 0 }]);

    // Every day of events is half-filled, those the migrations made and those the maintenance made just
    // now, so a claim's lease stays on its event's page (a HOT update); attempts are only ever inserted.
    const newDay = partitionName('webhook_events', 'day', addBuckets(today, 'day', 31 + 14));
    expect(report.created).toContain(newDay);
    const options: Array<{ part: string; options: string[] | null }> = await ds.query(
      `SELECT c.relname AS part, c.reloptions AS options FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = $1::regclass ORDER BY 1`,
      ['webhook_events'],
    );
    expect(options.map((o) => o.part)).toEqual(expect.arrayContaining([oldPartitionName('webhook_events'), newDay]));
    expect(options.filter((o) => JSON.stringify(o.options) !== JSON.stringify(['fillfactor=50']))).toEqual([]);
    const attemptOptions: Array<{ options: string[] | null }> = await ds.query(
      `SELECT c.reloptions AS options FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = $1::regclass`,
      ['webhook_attempts'],
    );
    expect(attemptOptions.every((o) => o.options === null)).toBe(true);
  });

  it('converts a table holding rows batch by batch while rows are inserted, updated and deleted, keeping every row and the identity', async () => {
    await ds.query(`CREATE TABLE scratch_conv (id uuid PRIMARY KEY, seq bigint GENERATED ALWAYS AS IDENTITY, at timestamptz NOT NULL, n integer NOT NULL)`);
    await ds.query(`INSERT INTO scratch_conv (id, at, n) SELECT gen_random_uuid(), now() - (i % 400) * interval '1 day', i FROM generate_series(1, 45000) i`);
    const runner = ds.createQueryRunner();
    await runner.connect();
    let writing = true;
    let writes = 0;
    // Writes beside the copy: each goes through the old table until the swap, then the new one.
    const writer = (async () => {
      while (writing) {
        await ds.query(`INSERT INTO scratch_conv (id, at, n) VALUES (gen_random_uuid(), now(), -1)`);
        await ds.query(`UPDATE scratch_conv SET n = n + 1000000 WHERE id = (SELECT id FROM scratch_conv WHERE n BETWEEN 0 AND 999999 ORDER BY n LIMIT 1)`);
        await ds.query(`DELETE FROM scratch_conv WHERE id = (SELECT id FROM scratch_conv WHERE n BETWEEN 0 AND 999999 ORDER BY n DESC LIMIT 1)`);
        writes++;
      }
    })();
    try {
      await convertToPartitioned(runner, {
        table: 'scratch_conv',
        key: { column: 'at', kind: 'timestamptz' },
        bucket: 'month',
        ahead: 1,
        walk: [{ column: 'id', type: 'uuid' }],
        primaryKey: ['id', 'at'],
        identity: 'seq',
        build: [`CREATE INDEX scratch_conv_n_idx ON {t} (n)`],
      });
    } finally {
      writing = false;
      await writer;
      await runner.release();
    }
    expect(writes).toBeGreaterThan(0);
    const [row] = await ds.query(`SELECT count(*)::int AS rows, count(*) FILTER (WHERE n = -1)::int AS inserted,
                                         count(*) FILTER (WHERE n >= 1000000)::int AS updated, count(DISTINCT id)::int AS ids,
                                         max(n) FILTER (WHERE n < 1000000)::int AS top FROM scratch_conv`);
    // 45000 rows, plus one per write, minus one per write: every update and delete reached the new table.
    expect(row).toEqual({ rows: 45000, inserted: writes, updated: writes, ids: 45000, top: 45000 - writes });
    expect((await ds.query(`SELECT relkind FROM pg_class WHERE relname = 'scratch_conv'`))[0].relkind).toBe('p');
    // 400 days of rows: the catch-all, 14 months, the current one and one ahead.
    expect((await partitionsOf('scratch_conv')).length).toBeGreaterThanOrEqual(15);
    const [{ seq }] = await ds.query(`INSERT INTO scratch_conv (id, at, n) VALUES (gen_random_uuid(), now(), 0) RETURNING seq`);
    const [{ top }] = await ds.query(`SELECT max(seq) AS top FROM scratch_conv WHERE n <> 0`);
    expect(Number(seq)).toBeGreaterThan(Number(top));
  });

  it('leaves the work to the worker already running it', async () => {
    const other = ds.createQueryRunner();
    await other.connect();
    try {
      await other.query(`SELECT pg_advisory_lock(hashtextextended('partition-maintenance', 0))`);
      expect(await service(new Clock(), []).run()).toEqual({ ran: false, created: [], dropped: [], failed: [] });
      await other.query(`SELECT pg_advisory_unlock(hashtextextended('partition-maintenance', 0))`);
    } finally {
      await other.release();
    }
    expect((await service(new Clock(), []).run()).ran).toBe(true);
  });
});
