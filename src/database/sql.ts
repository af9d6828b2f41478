import { DataSource, EntityManager } from 'typeorm';
import { Tx } from './unit-of-work';

export type Queryable = DataSource | EntityManager | Tx;

export interface SqlResult<T> {
  rows: T[];
  rowCount: number;
}

function managerOf(db: Queryable): EntityManager {
  if (db instanceof Tx) return db.manager;
  return db instanceof DataSource ? db.manager : db;
}

/**
 * Raw SQL with one result shape for every statement (TypeORM's query() returns `[rows, count]` for
 * UPDATE/DELETE but plain rows otherwise). Repositories use it for set-based statements.
 */
export async function sql<T = Record<string, unknown>>(db: Queryable, text: string, params: unknown[] = []): Promise<SqlResult<T>> {
  const manager = managerOf(db);
  const own = !manager.queryRunner;
  const runner = manager.queryRunner ?? manager.connection.createQueryRunner();
  try {
    const result = await runner.query(text, params, true);
    return { rows: (result.records ?? []) as T[], rowCount: result.affected ?? 0 };
  } finally {
    if (own) await runner.release();
  }
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
 * scan of every part. Idempotent per transaction.
 */
export async function keyLookupsOnly(tx: Tx | EntityManager): Promise<void> {
  const key = tx instanceof Tx ? tx.manager : tx;
  if (pinned.has(key)) return;
  pinned.add(key);
  await sql(tx, `SELECT set_config('enable_seqscan', 'off', true), set_config('enable_hashjoin', 'off', true), set_config('enable_mergejoin', 'off', true)`);
}
