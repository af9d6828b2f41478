import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `messages` and `message_parts` become monthly range partitions of the message id (a version 7 uuid: its
 * first 48 bits are its creation time in ms), so a lookup by id or a part's (message_id, part_number)
 * touches one partition, a part lives in its message's month, and retention drops a month of both tables
 * as two partitions instead of deleting rows one by one.
 * - Partitions `<table>_pYYYY_MM` hold the v7 ids made in that UTC month; `<table>_p_old` (MINVALUE to the
 *   first month) and the DEFAULT partition `<table>_p_legacy` hold every other id: version 4 ids made
 *   before ids were v7 (random, so most lie above every month) and any id of a month not created yet.
 *   Retention drops only month partitions; a legacy v4 id that happens to fall in a month's range (about
 *   one in ten thousand of them for 13 months) goes with that month.
 * - Foreign keys that referenced `messages` are replaced (a key referencing a partitioned table blocks
 *   detaching and dropping its partitions): a part's key is its account's (ON DELETE CASCADE, so an
 *   account's parts still go with it; a part is written only for a message its dispatcher claimed, and is
 *   dropped with its message's month); refund lines and sender verifications keep the id of a message the
 *   same transaction wrote or cancelled, and keep it after the message's month is dropped.
 * - The copy does not lock the tables for its duration: triggers on the old tables mirror every write into
 *   the new ones while rows are copied in id-ordered batches (each its own transaction); the swap at the
 *   end (counts compared, old tables dropped, new ones renamed) holds both tables for a moment.
 */
const BATCH = 20_000;
/** Months created ahead of the current one (the partition maintenance keeps this many from then on). */
const AHEAD = 3;

interface Spec {
  table: string;
  /** Its primary key, in order: the copy walks it. */
  key: string[];
  /** Storage parameters of each partition (a partitioned table has none of its own). */
  withClause: string;
  /**
   * Keys and indexes of table `t`, named as `name`'s (an index name is unique in the schema, so the copy's
   * are renamed at the swap; a constraint's name is its table's own, so the copy's keys have theirs from the start).
   */
  build: (t: string, name: string) => string[];
}

const SPECS: Spec[] = [
  {
    table: 'messages',
    key: ['id'],
    withClause: '',
    build: (t, name) => [
      `ALTER TABLE ${t} ADD CONSTRAINT ${t}_pkey PRIMARY KEY (id)`,
      `ALTER TABLE ${t} ADD CONSTRAINT ${name}_send_account_fkey FOREIGN KEY (account_id, send_id) REFERENCES sends (account_id, id) ON DELETE CASCADE`,
      `CREATE INDEX ${t}_account_created_idx ON ${t} (account_id, created_at DESC, seq DESC)`,
      `CREATE INDEX ${t}_account_custom_ref_idx ON ${t} (account_id, custom_ref, created_at DESC, seq DESC) WHERE custom_ref IS NOT NULL`,
      `CREATE INDEX ${t}_conversation_idx ON ${t} (sender, to_number, created_at DESC)`,
      `CREATE INDEX ${t}_send_order_idx ON ${t} (send_id, dispatch_at, seq)`,
    ],
  },
  {
    table: 'message_parts',
    key: ['message_id', 'part_number'],
    withClause: ' WITH (fillfactor = 50)',
    build: (t, name) => [
      `ALTER TABLE ${t} ADD CONSTRAINT ${t}_pkey PRIMARY KEY (message_id, part_number)`,
      `ALTER TABLE ${t} ADD CONSTRAINT ${name}_account_id_fkey FOREIGN KEY (account_id) REFERENCES accounts (id) ON DELETE CASCADE`,
      `CREATE INDEX ${t}_smsc_idx ON ${t} (carrier_id, smsc_id) WHERE smsc_id IS NOT NULL`,
      `CREATE INDEX ${t}_receipt_wait_idx ON ${t} (submitted_at) WHERE carrier_id >= 0`,
      `CREATE INDEX ${t}_receipt_due_idx ON ${t} (receipt_due_at) WHERE receipt_due_at IS NOT NULL`,
    ],
  },
];

const NEW = (table: string) => `${table}_partitioned`;
const pad = (n: number) => String(n).padStart(2, '0');
const monthStart = (year: number, month: number) => new Date(Date.UTC(year, month, 1));

/** The least v7 uuid made at or after `at`. */
function uuidAt(at: Date): string {
  const hex = at.getTime().toString(16).padStart(12, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-0000-0000-000000000000`;
}

/** The months from the one holding `first` to `AHEAD` months after the current one. */
function months(first: Date, now: Date): Array<{ suffix: string; from: string; to: string }> {
  const out = [];
  const last = monthStart(now.getUTCFullYear(), now.getUTCMonth() + AHEAD);
  for (let at = monthStart(first.getUTCFullYear(), first.getUTCMonth()); at <= last; at = monthStart(at.getUTCFullYear(), at.getUTCMonth() + 1)) {
    const next = monthStart(at.getUTCFullYear(), at.getUTCMonth() + 1);
    out.push({ suffix: `p${at.getUTCFullYear()}_${pad(at.getUTCMonth() + 1)}`, from: uuidAt(at), to: uuidAt(next) });
  }
  return out;
}

export class PartitionMessages1763706700000 implements MigrationInterface {
  name = 'PartitionMessages1763706700000';
  /** Batches commit one by one; the swap is a transaction of its own. */
  transaction = false;

  async up(q: QueryRunner): Promise<void> {
    const now = new Date();
    // The oldest v7 message (ids from 2020 on with version nibble 7) sets the first month.
    const [oldest] = await q.query(`SELECT id::text FROM messages WHERE id >= $1 AND substr(id::text, 15, 1) = '7' ORDER BY id LIMIT 1`, [uuidAt(new Date(Date.UTC(2020, 0, 1)))]);
    const first = oldest ? new Date(parseInt(oldest.id.replace(/-/g, '').slice(0, 12), 16)) : now;
    const bounds = months(first, now);
    await inTransaction(q, async () => {
      for (const spec of SPECS) await prepare(q, spec, bounds);
    });
    for (const spec of SPECS) await copy(q, spec);
    // Catch up with the writes made meanwhile until a round finds fewer than a batch, then swap.
    for (const spec of SPECS) while ((await resync(q, spec)) >= BATCH);
    await inTransaction(q, () => swap(q));
    // Partitions start with no statistics: without them the receipt's join on (carrier_id, smsc_id) was
    // planned as a scan of every partition (57 s for 100 receipts on a million parts, 0.16 s after ANALYZE).
    await q.query(`ANALYZE messages, message_parts`);
  }

  async down(q: QueryRunner): Promise<void> {
    await inTransaction(q, async () => {
      for (const spec of SPECS) {
        const t = spec.table;
        await q.query(`CREATE TABLE ${t}_unpartitioned (LIKE ${t} INCLUDING DEFAULTS INCLUDING IDENTITY INCLUDING CONSTRAINTS)`);
        await q.query(`INSERT INTO ${t}_unpartitioned OVERRIDING SYSTEM VALUE SELECT * FROM ${t}`);
      }
      await q.query(`SELECT setval(pg_get_serial_sequence('messages_unpartitioned', 'seq'), (SELECT last_value FROM messages_seq_seq), true)`);
      await q.query(`DROP TABLE message_parts, messages`);
      for (const spec of SPECS) {
        await q.query(`ALTER TABLE ${spec.table}_unpartitioned RENAME TO ${spec.table}`);
        for (const statement of spec.build(spec.table, spec.table)) await q.query(statement);
        if (spec.withClause) await q.query(`ALTER TABLE ${spec.table} SET (fillfactor = 50)`);
      }
      await q.query(`ALTER SEQUENCE messages_unpartitioned_seq_seq RENAME TO messages_seq_seq`);
      await q.query(`ALTER TABLE message_parts DROP CONSTRAINT message_parts_account_id_fkey`);
      await q.query(`ALTER TABLE message_parts ADD CONSTRAINT message_parts_message_id_fkey FOREIGN KEY (message_id) REFERENCES messages (id) ON DELETE CASCADE`);
      await q.query(`ALTER TABLE credit_refund_lines ADD CONSTRAINT credit_refund_lines_message_id_fkey FOREIGN KEY (message_id) REFERENCES messages (id) ON DELETE CASCADE`);
      await q.query(`UPDATE sender_verifications v SET message_id = NULL WHERE NOT EXISTS (SELECT 1 FROM messages m WHERE m.id = v.message_id)`);
      await q.query(`ALTER TABLE sender_verifications ADD CONSTRAINT sender_verifications_message_id_fkey FOREIGN KEY (message_id) REFERENCES messages (id) ON DELETE SET NULL`);
    });
  }
}

async function inTransaction(q: QueryRunner, work: () => Promise<void>): Promise<void> {
  await q.startTransaction();
  try {
    await work();
    await q.commitTransaction();
  } catch (err) {
    await q.rollbackTransaction();
    throw err;
  }
}

/** The partitioned copy with its partitions, indexes and keys, and the trigger mirroring writes into it. */
async function prepare(q: QueryRunner, spec: Spec, bounds: ReturnType<typeof months>): Promise<void> {
  const { table } = spec;
  const t = NEW(table);
  await q.query(`CREATE TABLE ${t} (LIKE ${table} INCLUDING DEFAULTS INCLUDING IDENTITY INCLUDING CONSTRAINTS) PARTITION BY RANGE (${spec.key[0]})`);
  // Column statistics targets (the parts' are lowered: their statistics are read by no plan that needs detail).
  const targets: Array<{ attname: string; attstattarget: number }> = await q.query(
    `SELECT attname, attstattarget FROM pg_attribute WHERE attrelid = $1::regclass AND attnum > 0 AND NOT attisdropped AND attstattarget >= 0`,
    [table],
  );
  for (const { attname, attstattarget } of targets) await q.query(`ALTER TABLE ${t} ALTER COLUMN ${attname} SET STATISTICS ${attstattarget}`);
  await q.query(`CREATE TABLE ${table}_p_old PARTITION OF ${t} FOR VALUES FROM (MINVALUE) TO ('${bounds[0].from}')${spec.withClause}`);
  for (const b of bounds) await q.query(`CREATE TABLE ${table}_${b.suffix} PARTITION OF ${t} FOR VALUES FROM ('${b.from}') TO ('${b.to}')${spec.withClause}`);
  await q.query(`CREATE TABLE ${table}_p_legacy PARTITION OF ${t} DEFAULT${spec.withClause}`);
  for (const statement of spec.build(t, table)) await q.query(statement);

  // Writes to the old table meanwhile log their keys; the copy re-reads those rows (resync). Writers only
  // append to the log, so they never wait for the copy (mirroring rows straight into the copy deadlocked
  // a batch against a writer's multi-row update).
  const keyColumns: Array<{ attname: string; type: string }> = await q.query(
    `SELECT attname, format_type(atttypid, atttypmod) AS type FROM pg_attribute WHERE attrelid = $1::regclass AND attname = ANY($2) ORDER BY array_position($2, attname::text)`,
    [table, spec.key],
  );
  await q.query(`CREATE TABLE ${t}_changes (${keyColumns.map((c) => `${c.attname} ${c.type} NOT NULL`).join(', ')})`);
  await q.query(`
    CREATE FUNCTION ${t}_log() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'DELETE' THEN
        INSERT INTO ${t}_changes VALUES (${spec.key.map((k) => `OLD.${k}`).join(', ')});
      ELSE
        INSERT INTO ${t}_changes VALUES (${spec.key.map((k) => `NEW.${k}`).join(', ')});
      END IF;
      RETURN NULL;
    END $$`);
  await q.query(`CREATE TRIGGER ${t}_log AFTER INSERT OR UPDATE OR DELETE ON ${table} FOR EACH ROW EXECUTE FUNCTION ${t}_log()`);
}

/** Copies the table in key order, a batch per transaction; rows the trigger mirrored meanwhile are kept. */
async function copy(q: QueryRunner, spec: Spec): Promise<void> {
  const { table, key } = spec;
  const cols = key.join(', ');
  let after: unknown[] | null = null;
  for (;;) {
    const where = after ? `WHERE (${cols}) > (${key.map((_, i) => `$${i + 1}`).join(', ')})` : '';
    const rows: Array<Record<string, unknown>> = await q.query(
      `WITH batch AS (SELECT * FROM ${table} ${where} ORDER BY ${cols} LIMIT ${BATCH}),
            copied AS (INSERT INTO ${NEW(table)} OVERRIDING SYSTEM VALUE SELECT * FROM batch ON CONFLICT (${cols}) DO NOTHING)
       SELECT ${key.map((k) => `${k}::text`).join(', ')} FROM batch ORDER BY ${key.map((k) => `${k} DESC`).join(', ')} LIMIT 1`,
      after ?? [],
    );
    if (rows.length === 0) return;
    after = key.map((k) => rows[0][k]);
  }
}

/**
 * Rows written since the copy began, read again from the old table (a round per transaction, `BATCH` keys at
 * a time); answers how many keys the round took. A key logged again while this runs is taken next round.
 */
async function resync(q: QueryRunner, spec: Spec): Promise<number> {
  let taken = 0;
  await inTransaction(q, async () => {
    taken = await resyncRound(q, spec);
  });
  return taken;
}

/** One round of resync in the caller's transaction. */
async function resyncRound(q: QueryRunner, spec: Spec): Promise<number> {
  const t = NEW(spec.table);
  const keys = spec.key.join(', ');
  const rows: Array<Record<string, unknown[] | null>> = await q.query(
    `WITH k AS (DELETE FROM ${t}_changes WHERE ctid = ANY (ARRAY(SELECT ctid FROM ${t}_changes LIMIT ${BATCH})) RETURNING ${keys})
     SELECT ${spec.key.map((k) => `array_agg(${k}) AS ${k}`).join(', ')} FROM (SELECT DISTINCT ${keys} FROM k) d`,
  );
  const lists = spec.key.map((k) => rows[0][k]);
  if (!lists[0]) return 0;
  const types = spec.key.length === 1 ? ['uuid'] : ['uuid', 'smallint'];
  const picked = `(${keys}) IN (SELECT * FROM unnest(${types.map((type, i) => `$${i + 1}::${type}[]`).join(', ')}))`;
  await q.query(`DELETE FROM ${t} WHERE ${picked}`, lists);
  await q.query(`INSERT INTO ${t} OVERRIDING SYSTEM VALUE SELECT * FROM ${spec.table} WHERE ${picked}`, lists);
  return lists[0].length;
}

/** Under both tables' locks: the counts agree, the old tables go and the new ones take their names. */
async function swap(q: QueryRunner): Promise<void> {
  await q.query(`LOCK TABLE messages, message_parts IN ACCESS EXCLUSIVE MODE`);
  for (const spec of SPECS) while ((await resyncRound(q, spec)) > 0);
  for (const { table } of SPECS) {
    const [{ old, copied }] = await q.query(`SELECT (SELECT count(*) FROM ${table})::bigint AS old, (SELECT count(*) FROM ${NEW(table)})::bigint AS copied`);
    if (old !== copied) throw new Error(`${table}: ${old} rows, ${copied} copied`);
  }
  const [{ last }] = await q.query(`SELECT last_value AS last FROM messages_seq_seq`);
  await q.query(`ALTER TABLE credit_refund_lines DROP CONSTRAINT credit_refund_lines_message_id_fkey`);
  await q.query(`ALTER TABLE sender_verifications DROP CONSTRAINT sender_verifications_message_id_fkey`);
  await q.query(`DROP TABLE message_parts, messages`);
  for (const spec of SPECS) {
    const t = NEW(spec.table);
    await q.query(`DROP FUNCTION ${t}_log()`);
    await q.query(`DROP TABLE ${t}_changes`);
    await q.query(`ALTER TABLE ${t} RENAME TO ${spec.table}`);
    const renamed: Array<{ name: string; index: boolean }> = await q.query(
      `SELECT conname AS name, false AS index FROM pg_constraint WHERE conrelid = $1::regclass AND conname LIKE $2
       UNION ALL SELECT c.relname, true FROM pg_index x JOIN pg_class c ON c.oid = x.indexrelid
        WHERE x.indrelid = $1::regclass AND c.relname LIKE $2 AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = c.oid)`,
      [spec.table, `${t}\\_%`],
    );
    for (const { name, index } of renamed) {
      const to = spec.table + name.slice(t.length);
      await q.query(index ? `ALTER INDEX ${name} RENAME TO ${to}` : `ALTER TABLE ${spec.table} RENAME CONSTRAINT ${name} TO ${to}`);
    }
  }
  await q.query(`ALTER SEQUENCE messages_partitioned_seq_seq RENAME TO messages_seq_seq`);
  await q.query(`SELECT setval('messages_seq_seq', $1, true)`, [last]);
}
