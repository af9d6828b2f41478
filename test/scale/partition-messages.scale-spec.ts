import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { prepareDatabase } from '../../src/database/prepare-database';
import { PartitionMessages1763706700000 } from '../../src/database/migrations/1763706700000-PartitionMessages';
import { MIGRATIONS } from '../../src/migrations';
import { dropDatabase } from '../support/test-env';

/**
 * The migration that partitions messages and their parts, on a database holding a million messages (and a
 * part each): 13 months of version 7 ids and a share of legacy version 4 ids, built set-based. While the
 * copy runs, a writer keeps inserting messages and settling parts on the old tables; afterwards every row
 * (those and the million) is in the partitioned tables as it was, each month in its own partition.
 */
const MESSAGES = Number(process.env.SCALE_MESSAGES ?? 1_000_000);
const LEGACY_SHARE = 0.05;
const BEFORE = MIGRATIONS.filter((m) => m !== PartitionMessages1763706700000 && Number(/\d{13}/.exec(m.name)![0]) < 1763706700000);

/** A digest of every row of the table (the row's text, so every column counts), order-free. */
const DIGEST = (table: string) => `SELECT count(*)::int AS n, sum(hashtext(t::text)::bigint)::text AS h FROM ${table} t`;

describe('partitioning messages on a database of a million messages', () => {
  const url = new URL(process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
  url.pathname = `/sms_scale_${randomBytes(4).toString('hex')}`;
  const config = { databaseUrl: url.toString(), databasePoolSize: 4, dependencyTimeoutMs: 10_000 };
  let db: Client;

  beforeAll(async () => {
    await prepareDatabase(config, BEFORE);
    db = new Client({ connectionString: config.databaseUrl });
    await db.connect();
  }, 120_000);

  afterAll(async () => {
    await db?.end();
    if (process.env.TEST_KEEP_DATABASE === 'true') console.log(`kept ${config.databaseUrl}`);
    else await dropDatabase(config.databaseUrl);
  });

  it('copies every row, keeps writes made during the copy, and puts each month in its partition', async () => {
    const built = Date.now();
    // Rows consistent by construction: no foreign-key trigger per row while loading (as a restore).
    await db.query(`SET session_replication_role = replica`);
    await db.query(`INSERT INTO accounts (name, optout_code) SELECT 'scale ' || a, 'scale-' || a FROM generate_series(1, 20) a`);
    const sends = await db.query<{ id: string; account_id: number }>(
      `INSERT INTO sends (account_id, kind) SELECT id, 'batch' FROM accounts WHERE name LIKE 'scale %' ORDER BY id RETURNING id, account_id`,
    );
    const [first] = sends.rows;
    // Message n of N: created over the last 13 months in id order; every 20th a legacy v4 id.
    await db.query(
      `INSERT INTO messages (id, account_id, send_id, to_number, sender, sender_type, body, custom_ref, status, encoding, parts, cost, is_test, dispatch_at, created_at)
       SELECT CASE WHEN n % $2 = 0 THEN gen_random_uuid()
                   ELSE (lpad(to_hex(floor(extract(epoch FROM at) * 1000)::bigint), 12, '0') || '7' || substr(gen_random_uuid()::text, 16))::uuid END,
              s.account_id, s.id, '614' || lpad((n % 100000000)::text, 8, '0'), 'Brand', 'alpha', 'Hello ' || n, 'ref-' || n,
              'pending', 'gsm7', 1, 7, false, at, at
         FROM generate_series(1, $1::int) n
         CROSS JOIN LATERAL (SELECT now() - interval '13 months' * (1 - n::float8 / $1) AS at) t
         JOIN unnest($3::bigint[], $4::int[]) WITH ORDINALITY AS s(id, account_id, k) ON s.k = 1 + n % 20`,
      [MESSAGES, Math.round(1 / LEGACY_SHARE), sends.rows.map((r) => r.id), sends.rows.map((r) => r.account_id)],
    );
    await db.query(
      `INSERT INTO message_parts (message_id, part_number, account_id, total_parts, carrier_id, smsc_id, status, submitted_at)
       SELECT id, 1, account_id, 1, 0, 'smsc-' || seq, 'submitted', created_at FROM messages`,
    );
    await db.query(`SET session_replication_role = DEFAULT`);
    await db.query('ANALYZE messages, message_parts');
    const before = { messages: (await db.query(DIGEST('messages'))).rows[0], parts: (await db.query(DIGEST('message_parts'))).rows[0] };
    expect(before.messages.n).toBe(MESSAGES);
    console.log(`built ${MESSAGES} messages and parts in ${Date.now() - built} ms`);

    // The writer: new messages with parts, and receipts settling old parts, until the migration is done.
    const writer = new Client({ connectionString: config.databaseUrl });
    await writer.connect();
    let done = false;
    let written = 0;
    const writing = (async () => {
      while (!done) {
        await writer.query(
          `WITH m AS (
             INSERT INTO messages (id, account_id, send_id, to_number, sender, sender_type, body, status, encoding, parts, cost, is_test, dispatch_at)
             SELECT (lpad(to_hex(floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint), 12, '0') || '7' || substr(gen_random_uuid()::text, 16))::uuid,
                    $1, $2, '61400000000', 'Brand', 'alpha', 'during', 'pending', 'gsm7', 1, 7, false, now()
               FROM generate_series(1, 10) RETURNING id)
           INSERT INTO message_parts (message_id, part_number, account_id, total_parts, carrier_id, smsc_id, status) SELECT id, 1, $1, 1, 0, 'live-' || id, 'submitted' FROM m`,
          [first.account_id, first.id],
        );
        await writer.query(
          `UPDATE message_parts SET status = 'delivered', receipt_at = now() WHERE (message_id, part_number) IN (
             SELECT message_id, part_number FROM message_parts WHERE status = 'submitted' AND message_id > gen_random_uuid() ORDER BY message_id LIMIT 10)`,
        );
        written += 10;
      }
    })();

    const migrated = Date.now();
    let applied: string[];
    try {
      ({ applied } = await prepareDatabase(config, MIGRATIONS));
    } finally {
      done = true;
      await writing;
      await writer.end();
    }
    console.log(`partitioned in ${Date.now() - migrated} ms while ${written} messages were written and as many parts settled`);
    expect(applied).toContain('PartitionMessages1763706700000');
    expect(written).toBeGreaterThan(0);

    const kinds = await db.query(`SELECT relname, relkind::text FROM pg_class WHERE relname IN ('messages', 'message_parts') ORDER BY relname`);
    expect(kinds.rows).toEqual([
      { relname: 'message_parts', relkind: 'p' },
      { relname: 'messages', relkind: 'p' },
    ]);
    // The million as they were (the writer only added rows, and settled parts: their count is unchanged).
    const after = await db.query(`${DIGEST('messages')} WHERE body <> 'during'`);
    expect(after.rows[0]).toEqual(before.messages);
    const during = await db.query(`SELECT count(*)::int AS n FROM messages m JOIN message_parts p ON p.message_id = m.id WHERE m.body = 'during'`);
    expect(during.rows[0].n).toBe(written);
    const parts = await db.query(`SELECT count(*)::int AS n FROM message_parts`);
    expect(parts.rows[0].n).toBe(MESSAGES + written);

    // Every v7 message is in its creation month's partition, every part in its message's month.
    const placed = await db.query(
      `SELECT count(*) FILTER (WHERE m.tableoid::regclass::text <> 'messages_p' || to_char(m.created_at AT TIME ZONE 'UTC', 'YYYY_MM'))::int AS misplaced,
              count(DISTINCT m.tableoid)::int AS partitions, count(DISTINCT date_trunc('month', m.created_at AT TIME ZONE 'UTC'))::int AS months
         FROM messages m WHERE substr(m.id::text, 15, 1) = '7'`,
    );
    expect(placed.rows[0]).toEqual({ misplaced: 0, partitions: placed.rows[0].months, months: placed.rows[0].months });
    expect(placed.rows[0].months).toBeGreaterThanOrEqual(13);
    const parted = await db.query(
      `SELECT count(*)::int AS n FROM message_parts p JOIN messages m ON m.id = p.message_id
        WHERE substr(p.tableoid::regclass::text, 15) <> substr(m.tableoid::regclass::text, 10)`,
    );
    expect(parted.rows[0].n).toBe(0);

    // A lookup by id reads one partition; new rows still number after the old ones.
    const sample = await db.query(`SELECT id FROM messages WHERE substr(id::text, 15, 1) = '7' ORDER BY seq LIMIT 1`);
    const plan = await db.query(`EXPLAIN (COSTS OFF) SELECT * FROM messages WHERE id = $1`, [sample.rows[0].id]);
    expect(plan.rows.filter((r: { 'QUERY PLAN': string }) => / on messages_p/.test(r['QUERY PLAN']))).toHaveLength(1);
    const seq = await db.query(
      `INSERT INTO messages (id, account_id, send_id, to_number, sender, sender_type, body, status, encoding, parts, cost, is_test, dispatch_at)
       VALUES (gen_random_uuid(), $1, $2, '61400000000', 'Brand', 'alpha', 'after', 'pending', 'gsm7', 1, 7, false, now())
       RETURNING seq::bigint > (SELECT max(seq) FROM messages WHERE body <> 'after') AS last`,
      [first.account_id, first.id],
    );
    expect(seq.rows[0].last).toBe(true);
  }, 600_000);
});
