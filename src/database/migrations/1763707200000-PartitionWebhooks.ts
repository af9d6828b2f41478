import { MigrationInterface, QueryRunner } from 'typeorm';
import { convertToPartitioned } from '../partitioning/convert-to-partitioned';

/**
 * Webhook events and their attempts become range-partitioned by UTC day, so their retention
 * (WEBHOOK_RETENTION_DAYS) drops whole days (src/partitions) instead of deleting rows one by one.
 * - An event's id is day-prefixed: day_prefixed_id() puts the UTC day number (since 1970) of the inserting
 *   transaction above the low 32 bits of the old sequence. Ids still ascend, stay below 2^53 (exact as JSON
 *   numbers), and carry their day, so webhook_events is partitioned by id and every lookup by id (claims,
 *   lease renewals, outcomes, redelivery) reads one partition. Ids made before this migration keep their
 *   values; they read as day 0 and sit in the catch-all `webhook_events_p_old`, which the batched purge
 *   (webhook-retention) empties as they age.
 * - An attempt lives in its event's day: webhook_attempts is partitioned by event_id on the same bounds, so
 *   an event and its attempts drop together. Its primary key becomes (id, event_id) (a partitioned table's
 *   keys must include the partition key); (event_id, attempt) stays unique. The foreign key from attempts to
 *   events is replaced (a key referencing a partitioned table blocks detaching its partitions): attempts
 *   reference their account instead (ON DELETE CASCADE, so an account's attempts still go with it), and are
 *   written only by the statement that moves their event on (recordOutcomes).
 * Converted in place, batch by batch, while the service runs (convertToPartitioned).
 */
export class PartitionWebhooks1763707200000 implements MigrationInterface {
  name = 'PartitionWebhooks1763707200000';
  transaction = false;

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE FUNCTION day_prefixed_id(seq bigint) RETURNS bigint LANGUAGE sql STABLE PARALLEL SAFE
      AS $$ SELECT (floor(extract(epoch FROM now()) / 86400)::bigint << 32) | (seq & 4294967295) $$`);
    await q.query(`ALTER TABLE webhook_attempts DROP CONSTRAINT webhook_attempts_event_id_fkey`);
    await convertToPartitioned(q, {
      table: 'webhook_events',
      key: { column: 'id', kind: 'dayPrefixedId' },
      bucket: 'day',
      ahead: 14,
      walk: [{ column: 'id', type: 'bigint' }],
      primaryKey: ['id'],
      build: [
        `CREATE INDEX webhook_events_due_idx ON {t} (next_attempt_at) WHERE state = 'pending'`,
        `ALTER TABLE {t} ADD CONSTRAINT webhook_events_account_id_fkey FOREIGN KEY (account_id) REFERENCES accounts(id) ON DELETE CASCADE`,
      ],
    });
    await q.query(`ALTER TABLE webhook_events ALTER COLUMN id SET DEFAULT day_prefixed_id(nextval('webhook_events_id_seq'::regclass))`);
    await convertToPartitioned(q, {
      table: 'webhook_attempts',
      key: { column: 'event_id', kind: 'dayPrefixedId' },
      bucket: 'day',
      ahead: 14,
      walk: [{ column: 'id', type: 'bigint' }],
      primaryKey: ['id', 'event_id'],
      build: [
        `CREATE INDEX webhook_attempts_account_idx ON {t} (account_id, id DESC)`,
        `CREATE INDEX webhook_attempts_account_failed_idx ON {t} (account_id, id DESC) WHERE NOT delivered`,
        `CREATE UNIQUE INDEX webhook_attempts_event_attempt_key ON {t} (event_id, attempt)`,
        `ALTER TABLE {t} ADD CONSTRAINT webhook_attempts_account_id_fkey FOREIGN KEY (account_id) REFERENCES accounts(id) ON DELETE CASCADE`,
      ],
    });
  }

  /** Back to plain tables, in one transaction (it holds both tables for the copy). Ids keep their values. */
  async down(q: QueryRunner): Promise<void> {
    await q.startTransaction();
    try {
      for (const table of ['webhook_events', 'webhook_attempts']) {
        await q.query(`CREATE TABLE ${table}_plain (LIKE ${table} INCLUDING DEFAULTS INCLUDING CONSTRAINTS)`);
        await q.query(`INSERT INTO ${table}_plain SELECT * FROM ${table}`);
        // The id sequence belongs to the partitioned table's column: it moves, or the drop would take it.
        await q.query(`ALTER SEQUENCE ${table}_id_seq OWNED BY ${table}_plain.id`);
      }
      await q.query(`DROP TABLE webhook_attempts, webhook_events`);
      await q.query(`ALTER TABLE webhook_events_plain RENAME TO webhook_events`);
      await q.query(`ALTER TABLE webhook_attempts_plain RENAME TO webhook_attempts`);
      // Plain sequence values from here on, above every day-prefixed id made meanwhile, so ids still ascend.
      await q.query(`SELECT setval('webhook_events_id_seq', (SELECT coalesce(max(id), 0) + 1 FROM webhook_events), false)`);
      await q.query(`ALTER TABLE webhook_events ALTER COLUMN id SET DEFAULT nextval('webhook_events_id_seq'::regclass)`);
      await q.query(`ALTER TABLE webhook_events ADD CONSTRAINT webhook_events_pkey PRIMARY KEY (id)`);
      await q.query(`ALTER TABLE webhook_events ADD CONSTRAINT webhook_events_account_id_fkey FOREIGN KEY (account_id) REFERENCES accounts(id) ON DELETE CASCADE`);
      await q.query(`CREATE INDEX webhook_events_due_idx ON webhook_events (next_attempt_at) WHERE state = 'pending'`);
      await q.query(`ALTER TABLE webhook_attempts ADD CONSTRAINT webhook_attempts_pkey PRIMARY KEY (id)`);
      await q.query(`DELETE FROM webhook_attempts a WHERE NOT EXISTS (SELECT 1 FROM webhook_events e WHERE e.id = a.event_id)`);
      await q.query(`ALTER TABLE webhook_attempts ADD CONSTRAINT webhook_attempts_event_id_fkey FOREIGN KEY (event_id) REFERENCES webhook_events(id) ON DELETE CASCADE`);
      await q.query(`CREATE INDEX webhook_attempts_account_idx ON webhook_attempts (account_id, id DESC)`);
      await q.query(`CREATE INDEX webhook_attempts_account_failed_idx ON webhook_attempts (account_id, id DESC) WHERE NOT delivered`);
      await q.query(`CREATE UNIQUE INDEX webhook_attempts_event_attempt_key ON webhook_attempts (event_id, attempt)`);
      await q.query(`DROP FUNCTION day_prefixed_id(bigint)`);
      await q.commitTransaction();
    } catch (err) {
      await q.rollbackTransaction();
      throw err;
    }
  }
}
