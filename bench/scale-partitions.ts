import type { Client } from 'pg';
import { addBuckets, boundLiteral, forValues, oldPartitionName, parsePartitionName, partitionName, type PartitionKey } from '../src/database/partitioning/partition-bounds';

/** The tables partitioned by the month of the message id, parts first (each is dropped with its message's month). */
const MONTHLY = ['message_parts', 'messages'];
const MONTH_NAME = /_p(\d{4})_(\d{2})$/;

const uuidAt = (at: Date) => {
  const hex = at.getTime().toString(16).padStart(12, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-0000-0000-000000000000`;
};
const monthName = (table: string, at: Date) => `${table}_p${at.getUTCFullYear()}_${String(at.getUTCMonth() + 1).padStart(2, '0')}`;

async function monthPartitions(query: (text: string, params?: unknown[]) => Promise<Array<{ name: string }>>, table: string): Promise<string[]> {
  const rows = await query(`SELECT c.relname AS name FROM pg_inherits h JOIN pg_class c ON c.oid = h.inhrelid WHERE h.inhparent = $1::regclass ORDER BY 1`, [table]);
  return rows.map((r) => r.name).filter((name) => MONTH_NAME.test(name));
}

/**
 * Before loading a history from `from` into a fresh database: month partitions back to `from`'s month,
 * so each month of history lands in its own partition (the migration made them from the current month
 * on, with `_p_old` below). Only on empty tables (the catch-all below is dropped and made again).
 */
export async function partitionHistoryMonths(c: Client, from: Date): Promise<void> {
  const query = async (text: string, params?: unknown[]) => (await c.query<{ name: string }>(text, params)).rows;
  for (const table of MONTHLY) {
    const [{ partitioned }] = (await c.query(`SELECT EXISTS (SELECT 1 FROM pg_partitioned_table WHERE partrelid = $1::regclass) AS partitioned`, [table])).rows;
    if (!partitioned) return;
    const [{ empty }] = (await c.query(`SELECT NOT EXISTS (SELECT 1 FROM ${table}) AS empty`)).rows;
    if (!empty) throw new Error(`${table} is not empty: its months cannot be made before the history is loaded`);
    const months = await monthPartitions(query, table);
    const match = MONTH_NAME.exec(months[0])!;
    const first = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, 1));
    const start = new Date(Date.UTC(from.getUTCFullYear(), from.getUTCMonth(), 1));
    if (start >= first) continue;
    const storage = table === 'message_parts' ? ' WITH (fillfactor = 50)' : '';
    await c.query(`DROP TABLE ${table}_p_old`);
    for (let at = start; at < first; at = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1))) {
      const next = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1));
      await c.query(`CREATE TABLE ${monthName(table, at)} PARTITION OF ${table} FOR VALUES FROM ('${uuidAt(at)}') TO ('${uuidAt(next)}')${storage}`);
    }
    await c.query(`CREATE TABLE ${table}_p_old PARTITION OF ${table} FOR VALUES FROM (MINVALUE) TO ('${uuidAt(start)}')${storage}`);
  }
}

/** The webhook tables, by the day in the event id (an attempt in its event's day). */
const DAILY: Array<{ table: string; key: PartitionKey }> = [
  { table: 'webhook_attempts', key: { column: 'event_id', kind: 'dayPrefixedId' } },
  { table: 'webhook_events', key: { column: 'id', kind: 'dayPrefixedId' } },
];

/**
 * Before loading: day partitions of the webhook tables `days` back from their first (the migration made
 * them from the current day on), so a month of events lands in its days. Only on empty tables.
 */
export async function partitionWebhookDays(c: Client, days: number): Promise<void> {
  for (const { table, key } of DAILY) {
    const [{ empty }] = (await c.query(`SELECT NOT EXISTS (SELECT 1 FROM ${table}) AS empty`)).rows;
    if (!empty) throw new Error(`${table} is not empty: its days cannot be made before the history is loaded`);
    const names = (await c.query<{ name: string }>(`SELECT c.relname AS name FROM pg_inherits h JOIN pg_class c ON c.oid = h.inhrelid WHERE h.inhparent = $1::regclass`, [table]))
      .rows;
    const starts = names.map((r) => parsePartitionName(table, 'day', r.name)).filter((d): d is Date => d !== null);
    const first = new Date(Math.min(...starts.map((d) => d.getTime())));
    const start = addBuckets(first, 'day', -days);
    await c.query(`DROP TABLE ${oldPartitionName(table)}`);
    for (let at = start; at < first; at = addBuckets(at, 'day', 1)) {
      await c.query(`CREATE TABLE ${partitionName(table, 'day', at)} PARTITION OF ${table} ${forValues(key, at, addBuckets(at, 'day', 1))}`);
    }
    await c.query(`CREATE TABLE ${oldPartitionName(table)} PARTITION OF ${table} FOR VALUES FROM (MINVALUE) TO (${boundLiteral(key, start)})`);
  }
}
