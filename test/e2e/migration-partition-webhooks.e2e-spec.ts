import { DataSource } from 'typeorm';
import { loadConfig } from '../../src/config/app-config';
import { PartitionWebhooks1763707200000 } from '../../src/database/migrations/1763707200000-PartitionWebhooks';
import { WebhookKeysPerStatement1763708800000 } from '../../src/database/migrations/1763708800000-WebhookKeysPerStatement';
import { bucketStart, partitionName } from '../../src/database/partitioning/partition-bounds';
import { typeormOptions } from '../../src/database/typeorm-options';

/**
 * The webhook partitioning migration on plain tables holding rows (run down to that layout on the file's own
 * database, filled as the code before wrote them), converted while events and attempts are written beside it.
 */
describe('Migration: webhook events and attempts partitioned by day', () => {
  let ds: DataSource;
  const migration = new PartitionWebhooks1763707200000();
  const keysPerStatement = new WebhookKeysPerStatement1763708800000();
  const LEGACY = 30_000;

  beforeAll(async () => {
    ds = new DataSource({ ...typeormOptions(loadConfig(process.env), { entities: [], migrations: [] }), extra: { max: 4 } });
    await ds.initialize();
  });
  afterAll(() => ds.destroy());

  const one = async <T>(sql: string, params: unknown[] = []): Promise<T> => (await ds.query(sql, params))[0] as T;
  const relkind = async (table: string) => (await one<{ relkind: string }>(`SELECT relkind FROM pg_class WHERE relname = $1`, [table])).relkind;
  const counts = () =>
    one<{ events: number; attempts: number; legacy_events: number; max_event: string }>(
      `SELECT (SELECT count(*)::int FROM webhook_events) AS events, (SELECT count(*)::int FROM webhook_attempts) AS attempts,
              (SELECT count(*)::int FROM webhook_events WHERE id < 4294967296) AS legacy_events, (SELECT max(id)::text FROM webhook_events) AS max_event`,
    );

  it('keeps every row, id and attempt while writes go on, puts new events in their day, keeps the constraints; and back', async () => {
    const q = ds.createQueryRunner();
    await q.connect();
    try {
      // A later migration replaced the account keys this one made: back to them first.
      await keysPerStatement.down(q);
      await migration.down(q);
      expect([await relkind('webhook_events'), await relkind('webhook_attempts')]).toEqual(['r', 'r']);
      const { id: accountId } = await one<{ id: number }>(`INSERT INTO accounts (name, optout_code) VALUES ('wh-migration', 'wh-migr1') RETURNING id`);
      // Rows as the plain layout wrote them: sequence ids, an attempt per event and a second for every tenth.
      await ds.query(`SELECT setval('webhook_events_id_seq', 1000, false)`);
      await ds.query(
        `INSERT INTO webhook_events (account_id, kind, body, state, attempts, created_at)
         SELECT $1, 'status', '{"n":' || i || '}', CASE WHEN i % 10 = 0 THEN 'failed' ELSE 'delivered' END, 1, now() - (i % 20) * interval '1 day'
           FROM generate_series(1, ${LEGACY}) i`,
        [accountId],
      );
      await ds.query(
        `INSERT INTO webhook_attempts (event_id, account_id, kind, url, attempt, error, duration_ms, delivered, created_at)
         SELECT e.id, e.account_id, 'status', 'https://example.test/hook', a, '', 5, e.state = 'delivered', e.created_at
           FROM webhook_events e CROSS JOIN generate_series(1, 2) a WHERE a = 1 OR e.id % 10 = 0`,
      );
      const before = await counts();
      expect(before).toMatchObject({ events: LEGACY, attempts: LEGACY + LEGACY / 10, legacy_events: LEGACY });

      // Writes beside the conversion, as the service makes them: an event, then its attempt.
      let writing = true;
      let writes = 0;
      const writer = (async () => {
        while (writing) {
          const [{ id }] = await ds.query(`INSERT INTO webhook_events (account_id, kind, body) VALUES ($1, 'inbound', '{}') RETURNING id`, [accountId]);
          await ds.query(
            `INSERT INTO webhook_attempts (event_id, account_id, kind, url, attempt, error, duration_ms, delivered) VALUES ($1, $2, 'inbound', 'https://example.test/in', 1, '', 3, true)`,
            [id, accountId],
          );
          writes++;
        }
      })();
      try {
        await migration.up(q);
      } finally {
        writing = false;
        await writer;
      }
      expect(writes).toBeGreaterThan(0);
      expect([await relkind('webhook_events'), await relkind('webhook_attempts')]).toEqual(['p', 'p']);
      const after = await counts();
      expect(after.events).toBe(LEGACY + writes);
      expect(after.attempts).toBe(LEGACY + LEGACY / 10 + writes);
      // Every id kept: the rows from before are exactly those of the catch-all.
      expect(await one(`SELECT count(*)::int AS n, min(id)::int AS low FROM webhook_events_p_old`)).toEqual({ n: after.legacy_events, low: 1000 });
      expect(await one(`SELECT count(*)::int AS n FROM webhook_attempts_p_old`)).toEqual({ n: after.attempts - (after.events - after.legacy_events) });
      expect(await one(`SELECT count(*)::int AS n FROM webhook_attempts a WHERE NOT EXISTS (SELECT 1 FROM webhook_events e WHERE e.id = a.event_id)`)).toEqual({ n: 0 });

      // A new event is day-prefixed, above every earlier id, in today's partition, and so is its attempt.
      const today = bucketStart(new Date(), 'day');
      const fresh = await one<{ id: string; part: string }>(
        `INSERT INTO webhook_events (account_id, kind, body) VALUES ($1, 'status', '{}') RETURNING id::text, tableoid::regclass::text AS part`,
        [accountId],
      );
      expect(BigInt(fresh.id) >> 32n).toBe(BigInt(today.getTime() / 86_400_000));
      expect(BigInt(fresh.id) > BigInt(after.max_event)).toBe(true);
      expect(fresh.part).toBe(partitionName('webhook_events', 'day', today));
      const attempt = `INSERT INTO webhook_attempts (event_id, account_id, kind, url, attempt, error, duration_ms, delivered)
                       VALUES ($1, $2, 'status', 'https://example.test/hook', 1, '', 5, true) RETURNING tableoid::regclass::text AS part`;
      expect(await one(attempt, [fresh.id, accountId])).toEqual({ part: partitionName('webhook_attempts', 'day', today) });
      await expect(ds.query(attempt, [fresh.id, accountId])).rejects.toThrow('duplicate key value violates unique constraint');
      await expect(ds.query(attempt.replace(`'https://example.test/hook', 1,`, `'https://example.test/hook', 2,`), [fresh.id, -1])).rejects.toThrow(
        'webhook_attempts_account_id_fkey',
      );

      // Back to plain tables with every row, then partitioned again (the layout the file's schema expects).
      const partitioned = await counts();
      await migration.down(q);
      expect([await relkind('webhook_events'), await relkind('webhook_attempts')]).toEqual(['r', 'r']);
      expect(await counts()).toEqual(partitioned);
      await migration.up(q);
      expect(await counts()).toEqual(partitioned);

      // An account's events and attempts still go with it, in the layout of the later migration too.
      await keysPerStatement.up(q);
      await expect(ds.query(attempt.replace(`'https://example.test/hook', 1,`, `'https://example.test/hook', 2,`), [fresh.id, -1])).rejects.toThrow(
        'insert or update on table "webhook_attempts" violates foreign key constraint "webhook_attempts_account_id_fkey"',
      );
      await expect(ds.query(`INSERT INTO webhook_events (account_id, kind, body) VALUES (-1, 'status', '{}')`)).rejects.toThrow(
        'insert or update on table "webhook_events" violates foreign key constraint "webhook_events_account_id_fkey"',
      );
      await expect(ds.query(`UPDATE webhook_events SET account_id = -1 WHERE id = $1`, [fresh.id])).rejects.toThrow(
        'update on table "webhook_events" would change a key checked by constraint "webhook_events_account_id_fkey"',
      );
      await ds.query(`DELETE FROM accounts WHERE id = $1`, [accountId]);
      expect(await counts()).toMatchObject({ events: 0, attempts: 0 });
    } finally {
      await q.release();
    }
  });
});
