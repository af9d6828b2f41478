import type { QueryRunner } from 'typeorm';
import { addBuckets, boundLiteral, bucketStart, type Bucket, dayOfPrefixedId, forValues, oldPartitionName, partitionName, type PartitionKey } from './partition-bounds';

/** Rows per copy statement: a statement of a second or so, holding its source rows FOR SHARE only meanwhile. */
const COPY_BATCH = 20_000;
/** Buckets made below the current one at most: older rows go to the catch-all `<table>_p_old`. */
const MAX_BUCKETS_BACK = 48;

export interface ConversionSpec {
  table: string;
  key: PartitionKey;
  bucket: Bucket;
  ahead: number;
  /** The old table's primary key, with types: the order the copy walks in and the rows the mirror trigger matches. */
  walk: Array<{ column: string; type: string }>;
  /** The new primary key's columns (they must include the key). */
  primaryKey: string[];
  /** An identity column to carry over (its next value continues the old one's). */
  identity?: string;
  /** Indexes, checks other than the copied CHECKs, and foreign keys of the new table, `{t}` standing for it; final names. */
  build: string[];
}

/**
 * When the oldest row was made, read off its key. Ids of a plain sequence from before a table's ids were
 * day-prefixed read as day 0: they all belong in the catch-all, so the buckets start at the current one.
 */
function oldestTime(key: PartitionKey, oldest: string | Date, current: Date): Date {
  if (key.kind === 'uuid7') return new Date(parseInt(String(oldest).replace('-', '').slice(0, 12), 16));
  if (key.kind === 'dayPrefixedId') {
    const day = dayOfPrefixedId(String(oldest));
    return day.getTime() === 0 ? current : day;
  }
  return new Date(oldest);
}

const rowOf = (cols: string[], prefix = '') => `(${cols.map((c) => prefix + c).join(', ')})`;

/**
 * Converts a live table to a range-partitioned one without holding it locked for the copy. Runs in a
 * migration with `transaction = false`: each step commits on its own.
 * 1. The old table's indexes are renamed `<name>_unpart` (index names are per schema), and `<table>_part`
 *    is made LIKE it, partitioned by the key, with its primary key, `build` statements, the catch-all
 *    `<table>_p_old` and one partition per bucket from the oldest row's to `ahead` after now.
 * 2. A row trigger on the old table mirrors every insert, update and delete into the new one.
 * 3. Rows are copied in primary-key order, COPY_BATCH per statement, each batch's source rows held FOR
 *    SHARE while it is copied, so a concurrent update either waits for the batch or is mirrored after it.
 * 4. One short transaction holding the old table ACCESS EXCLUSIVE drops the trigger and the old table and
 *    renames the new one; the identity's next value and any sequence a default uses carry over.
 */
export async function convertToPartitioned(q: QueryRunner, spec: ConversionSpec, now: Date = new Date()): Promise<void> {
  const t = spec.table;
  const part = `${t}_part`;
  const walkCols = spec.walk.map((w) => w.column);
  const indexes: Array<{ name: string }> = await q.query(`SELECT c.relname AS name FROM pg_index x JOIN pg_class c ON c.oid = x.indexrelid WHERE x.indrelid = $1::regclass`, [t]);
  for (const { name } of indexes) await q.query(`ALTER INDEX ${name} RENAME TO ${name}_unpart`);

  await q.query(`CREATE TABLE ${part} (LIKE ${t} INCLUDING DEFAULTS INCLUDING CONSTRAINTS INCLUDING STORAGE) PARTITION BY RANGE (${spec.key.column})`);
  await q.query(`ALTER TABLE ${part} ADD CONSTRAINT ${t}_pkey PRIMARY KEY ${rowOf(spec.primaryKey)}`);
  for (const statement of spec.build) await q.query(statement.replaceAll('{t}', part));

  const current = bucketStart(now, spec.bucket);
  const [{ oldest }]: Array<{ oldest: string | Date | null }> = await q.query(`SELECT min(${spec.key.column}) AS oldest FROM ${t}`);
  const oldestAt = oldest === null ? current : oldestTime(spec.key, oldest, current);
  const floor = addBuckets(current, spec.bucket, -MAX_BUCKETS_BACK);
  let start = bucketStart(new Date(Math.min(current.getTime(), Math.max(floor.getTime(), oldestAt.getTime()))), spec.bucket);
  await q.query(`CREATE TABLE ${oldPartitionName(t)} PARTITION OF ${part} FOR VALUES FROM (MINVALUE) TO (${boundLiteral(spec.key, start)})`);
  const last = addBuckets(current, spec.bucket, spec.ahead);
  for (; start.getTime() <= last.getTime(); start = addBuckets(start, spec.bucket, 1)) {
    await q.query(`CREATE TABLE ${partitionName(t, spec.bucket, start)} PARTITION OF ${part} ${forValues(spec.key, start, addBuckets(start, spec.bucket, 1))}`);
  }

  const match = walkCols.map((c) => `${c} = OLD.${c}`).join(' AND ');
  await q.query(`
    CREATE FUNCTION ${t}_mirror() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP <> 'INSERT' THEN DELETE FROM ${part} WHERE ${match}; END IF;
      IF TG_OP <> 'DELETE' THEN INSERT INTO ${part} SELECT (NEW).* ON CONFLICT DO NOTHING; END IF;
      RETURN NULL;
    END $$`);
  await q.query(`CREATE TRIGGER ${t}_mirror AFTER INSERT OR UPDATE OR DELETE ON ${t} FOR EACH ROW EXECUTE FUNCTION ${t}_mirror()`);

  const after = spec.walk.map((w, i) => `$${i + 1}::${w.type}`);
  let from: unknown[] | null = null;
  for (;;) {
    const where = from === null ? '' : `WHERE ${rowOf(walkCols)} > (${after.join(', ')})`;
    const rows: Array<Record<string, unknown>> = await q.query(
      `WITH batch AS (SELECT * FROM ${t} ${where} ORDER BY ${walkCols.join(', ')} LIMIT ${COPY_BATCH} FOR SHARE),
            copied AS (INSERT INTO ${part} SELECT * FROM batch ON CONFLICT DO NOTHING)
       SELECT ${walkCols.map((c) => `${c}::text AS ${c}`).join(', ')} FROM batch ORDER BY ${walkCols.map((c) => `${c} DESC`).join(', ')} LIMIT 1`,
      from ?? [],
    );
    if (rows.length === 0) break;
    from = walkCols.map((c) => rows[0][c]);
  }

  await q.startTransaction();
  try {
    await q.query(`LOCK TABLE ${t} IN ACCESS EXCLUSIVE MODE`);
    await q.query(`DROP TRIGGER ${t}_mirror ON ${t}`);
    await q.query(`DROP FUNCTION ${t}_mirror()`);
    // A default's sequence (bigserial) is owned by the old table: it moves, or the drop would take it.
    const owned: Array<{ seq: string; col: string }> = await q.query(
      `SELECT s.relname AS seq, a.attname AS col FROM pg_depend d JOIN pg_class s ON s.oid = d.objid AND s.relkind = 'S'
         JOIN pg_attribute a ON a.attrelid = d.refobjid AND a.attnum = d.refobjsubid
        WHERE d.refobjid = $1::regclass AND d.deptype = 'a'`,
      [t],
    );
    for (const { seq, col } of owned) await q.query(`ALTER SEQUENCE ${seq} OWNED BY ${part}.${col}`);
    let next = 1;
    if (spec.identity) {
      const [{ n }]: Array<{ n: string }> = await q.query(`SELECT coalesce(max(${spec.identity}), 0) + 1 AS n FROM ${t}`);
      next = Number(n);
    }
    await q.query(`DROP TABLE ${t}`);
    await q.query(`ALTER TABLE ${part} RENAME TO ${t}`);
    if (spec.identity) await q.query(`ALTER TABLE ${t} ALTER COLUMN ${spec.identity} ADD GENERATED ALWAYS AS IDENTITY (START WITH ${next})`);
    await q.commitTransaction();
  } catch (err) {
    await q.rollbackTransaction();
    throw err;
  }
  await q.query(`ANALYZE ${t}`);
}
