import { createHash } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import { arrayLiteral } from './array-literal';
import { poolOf } from './typeorm-pool';
import { Tx } from './unit-of-work';
import { nextBulkTurn } from '../common/concurrency/bulk-turns';

export type Queryable = DataSource | EntityManager | Tx;

export interface SqlResult<T> {
  rows: T[];
  rowCount: number;
}

function managerOf(db: Queryable): EntityManager {
  if (db instanceof Tx) return db.manager;
  return db instanceof DataSource ? db.manager : db;
}

export interface SqlOptions {
  /**
   * Run as a named prepared statement of the connection: parsed and planned once per connection, not at
   * every call. For the dispatch path's statements, which run thousands of times a campaign with large
   * CTEs whose planning cost more than their execution (0.25 ms to plan a statement that runs in 0.01).
   */
  prepared?: boolean;
}

interface PgClient {
  query(config: { name: string; text: string; values: unknown[] }): Promise<{ rows: unknown[]; rowCount: number | null }>;
}

const statementNames = new Map<string, string>();

/** A stable name per statement text (a prepared statement's name must always mean the same text). */
function statementName(text: string): string {
  let name = statementNames.get(text);
  if (name === undefined) {
    name = `stmt_${createHash('sha1').update(text).digest('hex').slice(0, 24)}`;
    statementNames.set(text, name);
  }
  return name;
}

/**
 * Raw SQL with one result shape for every statement (TypeORM's query() returns `[rows, count]` for
 * UPDATE/DELETE but plain rows otherwise). Repositories use it for set-based statements.
 */
export async function sql<T = Record<string, unknown>>(db: Queryable, text: string, params: unknown[] = [], options: SqlOptions = {}): Promise<SqlResult<T>> {
  params = await arrayLiterals(params);
  const manager = managerOf(db);
  const own = !manager.queryRunner;
  if (options.prepared && own) {
    // Outside a transaction, straight to the driver's pool, which checks a connection out and back in
    // itself: no TypeORM query runner made and released around each statement (every redirect runs one).
    const pool = poolOf(manager.connection);
    const result = await pool.query({ name: statementName(text), text, values: params });
    return { rows: result.rows as T[], rowCount: result.rowCount ?? 0 };
  }
  const runner = manager.queryRunner ?? manager.connection.createQueryRunner();
  try {
    if (options.prepared) {
      const client = (await runner.connect()) as PgClient;
      const result = await client.query({ name: statementName(text), text, values: params });
      return { rows: result.rows as T[], rowCount: result.rowCount ?? 0 };
    }
    const result = await runner.query(text, params, true);
    return { rows: (result.records ?? []) as T[], rowCount: result.affected ?? 0 };
  } finally {
    if (own) await runner.release();
  }
}

/**
 * Array elements converted between two turns of the event loop. A send of 10000 messages passes a dozen
 * 10000-element columns; converted in one go they held the process for tens of milliseconds while the API
 * (in the default one-process shape, beside a campaign's dispatch) waited. A group commit's few hundred
 * outcomes or receipts stay within one turn.
 */
const ELEMENTS_PER_TURN = 5000;

/** The parameters with each array as its PostgreSQL literal (arrayLiteral), yielding between large ones. */
async function arrayLiterals(params: unknown[]): Promise<unknown[]> {
  const out = new Array<unknown>(params.length);
  let sinceTurn = 0;
  for (let i = 0; i < params.length; i++) {
    const p = params[i];
    if (!Array.isArray(p)) {
      out[i] = p;
      continue;
    }
    if (sinceTurn >= ELEMENTS_PER_TURN) {
      await nextBulkTurn();
      sinceTurn = 0;
    }
    out[i] = arrayLiteral(p) ?? p;
    sinceTurn += p.length;
  }
  return out;
}

/** The entity manager for a repository call: the transaction's, or the pool's. */
export function managerFor(dataSource: DataSource, tx?: Tx): EntityManager {
  return tx ? tx.manager : dataSource.manager;
}

/** A page's LIMIT and OFFSET as bound parameters after `params` (never interpolated). */
export function paged(params: readonly unknown[], page: { limit: number; offset: number }): { clause: string; params: unknown[] } {
  return { clause: `LIMIT $${params.length + 1} OFFSET $${params.length + 2}`, params: [...params, page.limit, page.offset] };
}

const pinned = new WeakSet<object>();

/**
 * For the rest of this transaction, plans are nested loops over indexes: no sequential scan, hash or
 * merge join unless nothing else is possible. For hot-path statements that touch a few hundred rows by
 * key: however stale the statistics of a fast-growing table, a 500-receipt batch can then never become a
 * scan of every part. JIT is off too: a sequential scan that remains (of a small table such as
 * dispatch_batches) carries the planner's 10^10 penalty, which made PostgreSQL JIT-compile the stale-claim
 * sweep every time (0.3 to 0.5 s of compiling for a statement that reads one page). Prepared statements
 * (see SqlOptions.prepared) keep one generic plan: by key, whatever the parameters, so planning them
 * again at each call would buy nothing. Idempotent per transaction.
 */
export async function keyLookupsOnly(tx: Tx | EntityManager): Promise<void> {
  const key = tx instanceof Tx ? tx.manager : tx;
  if (pinned.has(key)) return;
  pinned.add(key);
  await setForTransaction(tx, { ...NESTED_LOOPS_BY_KEY, plan_cache_mode: 'force_generic_plan' });
}

/**
 * For the rest of this transaction, an ORDER BY … LIMIT reads its rows in an index's order and stops at
 * the limit, and joins go by key (nested loops): no sort, bitmap or sequential scan, hash or merge join
 * unless nothing else is possible. For a claim of the first N due rows of a table that a burst has just
 * filled: with statistics from before the burst the planner sorted every due row (tens of thousands,
 * 20–40 ms) to take the first 500. Unlike keyLookupsOnly, plans stay custom, so a constant array in the
 * statement is still hashed.
 */
export async function indexOrderOnly(tx: Tx | EntityManager): Promise<void> {
  await setForTransaction(tx, { enable_sort: 'off', enable_bitmapscan: 'off', ...NESTED_LOOPS_BY_KEY });
}

/** Planner settings of both modes above: no sequential scan, hash or merge join, no JIT. */
const NESTED_LOOPS_BY_KEY = { enable_seqscan: 'off', enable_hashjoin: 'off', enable_mergejoin: 'off', jit: 'off' } as const;

/** Settings for the rest of the transaction, in one prepared statement (its text is fixed per set of settings). */
async function setForTransaction(tx: Tx | EntityManager, settings: Record<string, string>): Promise<void> {
  const text = `SELECT ${Object.entries(settings)
    .map(([name, value]) => `set_config('${name}', '${value}', true)`)
    .join(', ')}`;
  await sql(tx, text, [], { prepared: true });
}
