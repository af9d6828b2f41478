import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * How many messages each account has per month of their ids (the month partition each sits in), kept by
 * statement triggers on `messages` in the inserting or deleting statement's own transaction, so an
 * unfiltered history's `total` is a sum of a few rows instead of an exact count of every message (2.8
 * million index entries, about 130 ms, for the biggest account of a 10-million-message history).
 * - `month` is the UTC month read off the id's first 48 bits, which is exactly the range partition the row
 *   lives in (a version 4 id from before ids were v7 reads as a random month; it sits in that month's
 *   partition if one exists, otherwise in a catch-all that is never dropped).
 * - Dropping a month partition bypasses the triggers: the partition maintenance deletes that month's rows
 *   here in the same transaction (src/partitions).
 * - Statement triggers on the partitioned parent: one grouped upsert per INSERT statement (a send's
 *   messages are one statement), rows taken in key order so concurrent multi-account statements cannot
 *   deadlock on them.
 */
export class MessageCounts1763707700000 implements MigrationInterface {
  name = 'MessageCounts1763707700000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE FUNCTION message_month(id uuid) RETURNS date LANGUAGE sql IMMUTABLE PARALLEL SAFE
      AS $$ SELECT date_trunc('month', to_timestamp((('x' || substr(replace(id::text, '-', ''), 1, 12))::bit(48)::bigint) / 1000.0) AT TIME ZONE 'UTC')::date $$`);
    await q.query(`
      CREATE TABLE message_counts (
        account_id integer NOT NULL,
        month date NOT NULL,
        messages bigint NOT NULL,
        CONSTRAINT message_counts_pkey PRIMARY KEY (account_id, month),
        CONSTRAINT message_counts_account_id_fkey FOREIGN KEY (account_id) REFERENCES accounts(id) ON DELETE CASCADE
      )`);
    // The least v7 id made at or after a time (the bound of its month's partition).
    await q.query(`
      CREATE FUNCTION message_id_at(at timestamptz) RETURNS uuid LANGUAGE sql IMMUTABLE PARALLEL SAFE
      AS $$ SELECT (substr(h, 1, 8) || '-' || substr(h, 9, 4) || '-0000-0000-000000000000')::uuid
              FROM (SELECT lpad(to_hex(floor(extract(epoch FROM at) * 1000)::bigint), 12, '0') AS h) x $$`);
    // Rows of the current month (nearly all) are told by two comparisons; message_month() costs about
    // 0.8 µs a row (32 ms more for a 50000-message list send).
    await q.query(`
      CREATE FUNCTION message_counts_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        this_month date := date_trunc('month', now() AT TIME ZONE 'UTC')::date;
        month_from uuid := message_id_at(this_month::timestamp AT TIME ZONE 'UTC');
        month_to uuid := message_id_at((this_month + interval '1 month') AT TIME ZONE 'UTC');
      BEGIN
        INSERT INTO message_counts (account_id, month, messages)
        SELECT account_id, CASE WHEN id >= month_from AND id < month_to THEN this_month ELSE message_month(id) END, count(*)
          FROM inserted_messages GROUP BY 1, 2 ORDER BY 1, 2
        ON CONFLICT (account_id, month) DO UPDATE SET messages = message_counts.messages + excluded.messages;
        RETURN NULL;
      END $$`);
    await q.query(`
      CREATE FUNCTION message_counts_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        UPDATE message_counts c SET messages = c.messages - d.n
          FROM (SELECT account_id, message_month(id) AS month, count(*) AS n FROM deleted_messages GROUP BY 1, 2 ORDER BY 1, 2) d
         WHERE c.account_id = d.account_id AND c.month = d.month;
        RETURN NULL;
      END $$`);
    // Taken while no message is written: the backfill and the triggers see the same rows.
    await q.query(`LOCK TABLE messages IN SHARE MODE`);
    await q.query(
      `CREATE TRIGGER messages_counted_insert AFTER INSERT ON messages REFERENCING NEW TABLE AS inserted_messages FOR EACH STATEMENT EXECUTE FUNCTION message_counts_inserted()`,
    );
    await q.query(
      `CREATE TRIGGER messages_counted_delete AFTER DELETE ON messages REFERENCING OLD TABLE AS deleted_messages FOR EACH STATEMENT EXECUTE FUNCTION message_counts_deleted()`,
    );
    await q.query(`INSERT INTO message_counts (account_id, month, messages) SELECT account_id, message_month(id), count(*) FROM messages GROUP BY 1, 2`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER messages_counted_delete ON messages`);
    await q.query(`DROP TRIGGER messages_counted_insert ON messages`);
    await q.query(`DROP FUNCTION message_counts_deleted()`);
    await q.query(`DROP FUNCTION message_counts_inserted()`);
    await q.query(`DROP TABLE message_counts`);
    await q.query(`DROP FUNCTION message_id_at(timestamptz)`);
    await q.query(`DROP FUNCTION message_month(uuid)`);
  }
}
