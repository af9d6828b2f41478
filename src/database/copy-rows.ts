import { once } from 'node:events';
import type { Client } from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { Tx } from './unit-of-work';
import { nextBulkTurn } from '../common/concurrency/bulk-turns';

/** Rows per chunk written to the COPY stream: the event loop turns between chunks. */
export const ROWS_PER_CHUNK = 2000;

/**
 * One field of COPY's text format: `\N` for null; a backslash, newline, carriage return or tab escaped
 * (the only characters the format gives a meaning); everything else as it is.
 */
export function copyField(value: string | number | boolean | null): string {
  if (value === null) return '\\N';
  if (typeof value !== 'string') return typeof value === 'boolean' ? (value ? 't' : 'f') : String(value);
  return NEEDS_ESCAPE.test(value) ? value.replace(ESCAPED, (c) => ESCAPES[c]) : value;
}

const NEEDS_ESCAPE = /[\\\n\r\t]/;
const ESCAPED = /[\\\n\r\t]/g;
const ESCAPES: Record<string, string> = { '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/**
 * Inserts `count` rows with one `COPY table (columns) FROM STDIN` in the transaction: the rows stream to
 * PostgreSQL in chunks, so it stores one chunk while the next is written, and it parses plain lines, not a
 * dozen array literals unnested into rows (a send's 10000 messages: about 120 ms against 150 ms for
 * INSERT … SELECT FROM unnest). `line(i)` is row i's fields, each from copyField. Rows are inserted in
 * order (column defaults such as a sequence are drawn in that order), and every trigger and constraint
 * applies as for an INSERT. `whileStoring` runs once every line is written, while PostgreSQL still stores
 * the last chunks (the caller's own work, overlapped). If PostgreSQL refuses a row, or `line` or
 * `whileStoring` throws, the COPY fails and the promise rejects; the transaction is then aborted.
 */
export function copyRows(tx: Tx, table: string, columns: readonly string[], count: number, line: (i: number) => string[], whileStoring?: () => Promise<void>): Promise<number> {
  let start = 0;
  return copyChunks(
    tx,
    table,
    columns,
    () => {
      if (start >= count) return null;
      const end = Math.min(count, start + ROWS_PER_CHUNK);
      const rows = new Array<string[]>(end - start);
      for (let i = start; i < end; i++) rows[i - start] = line(i);
      start = end;
      return rows;
    },
    { whileStoring },
  );
}

/** What a caller of copyChunks runs beside it. */
export interface CopyHooks {
  /** Runs once every row is written, while PostgreSQL still stores the last (not at all when there were none). */
  whileStoring?: () => Promise<void>;
  /** Runs in the transaction before the COPY starts (not at all when there are no rows). */
  beforeCopy?: () => Promise<void>;
}

/**
 * copyRows for rows made a chunk at a time: `nextChunk()` is the next chunk's rows (each row its fields,
 * each from copyField; [] for none this time), null once there are no more. It is asked for a chunk while
 * PostgreSQL stores the chunks before, a turn of the event loop after the last, so rows that cost node
 * time to make are made while PostgreSQL works. The COPY starts with the first row, so chunks that hold
 * none run no statement. Returns how many rows were copied; failures as for copyRows.
 */
export async function copyChunks(tx: Tx, table: string, columns: readonly string[], nextChunk: () => string[][] | null, hooks: CopyHooks = {}): Promise<number> {
  let copy: { stream: ReturnType<typeof copyFrom>; finished: Promise<void> } | undefined;
  let refused = false;
  const open = async () => {
    const runner = tx.manager.queryRunner;
    if (!runner) throw new Error('a COPY needs a transaction');
    await hooks.beforeCopy?.();
    const client = (await runner.connect()) as Client;
    const stream = client.query(copyFrom(`COPY ${table} (${columns.join(', ')}) FROM STDIN`));
    const finished = new Promise<void>((resolve, reject) => {
      stream.on('finish', resolve);
      stream.on('error', (err) => {
        refused = true;
        reject(err);
      });
    });
    // Settled below; a refusal arriving while chunks are still being written must not count as unhandled.
    finished.catch(() => undefined);
    return { stream, finished };
  };
  let copied = 0;
  try {
    for (let first = true; ; first = false) {
      if (!first) await nextBulkTurn();
      // PostgreSQL refused a row: the stream is done with, nothing more may be written to it.
      if (refused) break;
      const rows = nextChunk();
      if (rows === null) break;
      if (rows.length === 0) continue;
      copy ??= await open();
      copied += rows.length;
      const lines = new Array<string>(rows.length);
      for (let i = 0; i < rows.length; i++) lines[i] = rows[i].join('\t');
      if (!copy.stream.write(`${lines.join('\n')}\n`)) await once(copy.stream, 'drain');
    }
    if (copy && !refused) {
      copy.stream.end();
      await hooks.whileStoring?.();
    }
  } catch (err) {
    // A COPY still being written is abandoned (the connection stays usable, the transaction aborted); one
    // already ended is let finish. Either way the caller's error wins.
    if (copy) {
      if (!refused && !copy.stream.writableEnded) copy.stream.destroy(err as Error);
      await copy.finished.catch(() => undefined);
    }
    throw err;
  }
  if (copy) await copy.finished;
  return copied;
}
