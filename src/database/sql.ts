import { DataSource, EntityManager } from 'typeorm';

export type Queryable = DataSource | EntityManager;

export interface SqlResult<T> {
  rows: T[];
  rowCount: number;
}

/**
 * Raw SQL with one result shape for every statement (TypeORM's query() returns `[rows, count]` for
 * UPDATE/DELETE but plain rows otherwise). Repositories use it for set-based statements.
 */
export async function sql<T = Record<string, unknown>>(db: Queryable, text: string, params: unknown[] = []): Promise<SqlResult<T>> {
  const manager = db instanceof DataSource ? db.manager : db;
  const own = !manager.queryRunner;
  const runner = manager.queryRunner ?? manager.connection.createQueryRunner();
  try {
    const result = await runner.query(text, params, true);
    return { rows: (result.records ?? []) as T[], rowCount: result.affected ?? 0 };
  } finally {
    if (own) await runner.release();
  }
}
