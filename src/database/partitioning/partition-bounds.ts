/**
 * Time buckets of range-partitioned tables, as pure functions: a bucket's start and end, its partition's
 * name, the SQL literal of its bounds (for a version 7 uuid key or a timestamptz key), and which partitions
 * the maintenance must create or drop. Buckets are UTC calendar months or UTC days. Migrations and the
 * periodic maintenance both use these, so a converted table and the partitions made later line up exactly.
 */
export type Bucket = 'month' | 'day';

/**
 * The partition key: a v7 uuid (its first 48 bits are the Unix time in ms), a timestamptz column, or a
 * day-prefixed bigint id (`dayPrefixedId`: the UTC day number since 1970 shifted left 32 bits, OR'd with
 * the low 32 bits of a sequence; see dayPrefixedIdDefault).
 */
export interface PartitionKey {
  column: string;
  kind: 'uuid7' | 'timestamptz' | 'dayPrefixedId';
}

const DAY_MS = 86_400_000;
/** Bits of a day-prefixed id below its day number. */
export const DAY_PREFIX_SHIFT = 32;

/**
 * The least day-prefixed id of the UTC day holding `ms` (a bound is a bucket start, so always a midnight).
 * Day numbers stay below 2^21 until the year 7700, so every id stays below 2^53: exact as a JSON number.
 */
export function dayPrefixedIdAt(ms: number): bigint {
  if (!Number.isInteger(ms) || ms < 0) throw new RangeError(`no time for a day-prefixed id: ${ms}`);
  return BigInt(Math.floor(ms / DAY_MS)) << BigInt(DAY_PREFIX_SHIFT);
}

/** The start of the UTC day a day-prefixed id was made in (1970-01-01 for an id from before the prefix). */
export function dayOfPrefixedId(id: bigint | string | number): Date {
  return new Date(Number(BigInt(id) >> BigInt(DAY_PREFIX_SHIFT)) * DAY_MS);
}

/**
 * The column default that makes day-prefixed ids: day_prefixed_id(seq), a function the webhook partitioning
 * migration defines, puts the transaction's UTC day number in the high bits and the sequence's low 32 bits
 * below it (a day would need 2^32 ids to repeat one). They ascend as the plain sequence did, and an id names
 * its day's partition, so a lookup by id reads one partition.
 */
export const dayPrefixedIdDefault = (sequence: string) => `day_prefixed_id(nextval('${sequence}'))`;

export interface PartitionRange {
  name: string;
  start: Date;
  end: Date;
}

/** The start of the bucket holding `at`. */
export function bucketStart(at: Date, bucket: Bucket): Date {
  return bucket === 'month' ? new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1)) : new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()));
}

/** The start of the bucket `n` buckets after (negative: before) the bucket starting at `start`. */
export function addBuckets(start: Date, bucket: Bucket, n: number): Date {
  return bucket === 'month'
    ? new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + n, 1))
    : new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth(), start.getUTCDate() + n));
}

const pad = (n: number) => String(n).padStart(2, '0');

/** `messages_p2026_11` for a month, `webhook_events_p2026_11_27` for a day. */
export function partitionName(table: string, bucket: Bucket, start: Date): string {
  const month = `${table}_p${start.getUTCFullYear()}_${pad(start.getUTCMonth() + 1)}`;
  return bucket === 'month' ? month : `${month}_${pad(start.getUTCDate())}`;
}

/** The bucket start a partition name stands for, or null when the name is not a bucket's (the catch-alls). */
export function parsePartitionName(table: string, bucket: Bucket, name: string): Date | null {
  if (!name.startsWith(`${table}_p`)) return null;
  const rest = name.slice(table.length + 2);
  const match = bucket === 'month' ? /^(\d{4})_(\d{2})$/.exec(rest) : /^(\d{4})_(\d{2})_(\d{2})$/.exec(rest);
  if (!match) return null;
  const start = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, match[3] ? Number(match[3]) : 1));
  return partitionName(table, bucket, start) === name ? start : null;
}

/** The name of the catch-all below the first bucket (MINVALUE to the first bucket's start); never dropped. */
export const oldPartitionName = (table: string) => `${table}_p_old`;

/**
 * The uuid whose 48-bit millisecond prefix is `ms` and every other bit zero: the least v7 id made at or after
 * `ms`, so `[uuidAt(start), uuidAt(end))` holds exactly the v7 ids made in `[start, end)`.
 */
export function uuidAt(ms: number): string {
  if (!Number.isInteger(ms) || ms < 0 || ms >= 2 ** 48) throw new RangeError(`no 48-bit millisecond time: ${ms}`);
  const hex = ms.toString(16).padStart(12, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-0000-0000-000000000000`;
}

/** A bucket bound as an SQL literal for the key's type. */
export function boundLiteral(key: PartitionKey, at: Date): string {
  if (key.kind === 'dayPrefixedId') return String(dayPrefixedIdAt(at.getTime()));
  return key.kind === 'uuid7' ? `'${uuidAt(at.getTime())}'` : `'${at.toISOString()}'`;
}

/** The SQL `FOR VALUES` clause of a bucket partition. */
export function forValues(key: PartitionKey, start: Date, end: Date): string {
  return `FOR VALUES FROM (${boundLiteral(key, start)}) TO (${boundLiteral(key, end)})`;
}

export interface MaintenanceSpec {
  table: string;
  bucket: Bucket;
  /** Buckets made beyond the current one. */
  ahead: number;
  /** Buckets kept before the current one: a bucket is dropped once its end is this many buckets before the current bucket's start. */
  retention: number;
}

/**
 * What to do now: the bucket partitions missing from the current bucket to `ahead` after it, and the
 * existing bucket partitions wholly older than retention (their end at or before the current bucket's
 * start minus `retention` buckets), oldest first. Names that are not buckets (catch-alls) are never dropped.
 */
export function planMaintenance(spec: MaintenanceSpec, now: Date, existing: readonly string[]): { create: PartitionRange[]; drop: PartitionRange[] } {
  const current = bucketStart(now, spec.bucket);
  const have = new Set(existing);
  const create: PartitionRange[] = [];
  for (let i = 0; i <= spec.ahead; i++) {
    const start = addBuckets(current, spec.bucket, i);
    const name = partitionName(spec.table, spec.bucket, start);
    if (!have.has(name)) create.push({ name, start, end: addBuckets(start, spec.bucket, 1) });
  }
  const cutoff = addBuckets(current, spec.bucket, -spec.retention);
  const drop = existing
    .map((name) => ({ name, start: parsePartitionName(spec.table, spec.bucket, name) }))
    .filter((p): p is { name: string; start: Date } => p.start !== null)
    .map((p) => ({ ...p, end: addBuckets(p.start, spec.bucket, 1) }))
    .filter((p) => p.end.getTime() <= cutoff.getTime())
    .sort((a, b) => a.start.getTime() - b.start.getTime());
  return { create, drop };
}
