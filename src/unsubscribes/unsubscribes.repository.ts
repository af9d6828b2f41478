import { Injectable } from '@nestjs/common';
import { Tx } from '../database/unit-of-work';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { Page } from '../common/http/pagination';
import { paged, sql } from '../database/sql';
import type { UnsubscribeSource } from './unsubscribe.entity';

export interface UnsubscribeRow {
  number: string;
  source: UnsubscribeSource;
  created_at: Date;
}

@Injectable()
export class UnsubscribesRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async page(accountId: number, number: string | undefined, page: Page): Promise<{ total: number; rows: UnsubscribeRow[] }> {
    const params: unknown[] = [accountId];
    let where = 'account_id = $1';
    if (number !== undefined) {
      params.push(number);
      where += ' AND number = $2';
    }
    const pageParams = paged(params, page);
    const [count, rows] = await Promise.all([
      sql<{ total: number }>(this.dataSource, `SELECT count(*) AS total FROM unsubscribes WHERE ${where}`, params),
      sql<UnsubscribeRow>(
        this.dataSource,
        `SELECT number, source, created_at FROM unsubscribes WHERE ${where} ORDER BY created_at DESC, number ${pageParams.clause}`,
        pageParams.params,
      ),
    ]);
    return { total: count.rows[0].total, rows: rows.rows };
  }

  async insert(accountId: number, number: string, source: UnsubscribeSource, tx?: Tx): Promise<boolean> {
    const { rowCount } = await sql(tx ?? this.dataSource, `INSERT INTO unsubscribes (account_id, number, source) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`, [
      accountId,
      number,
      source,
    ]);
    return rowCount > 0;
  }

  /** The account's opt-outs newest first, those whose number (in either form) contains `digits` when given. */
  async search(accountId: number, digits: string | null, limit: number, offset: number): Promise<UnsubscribeRow[]> {
    const { rows } = await sql<UnsubscribeRow>(
      this.dataSource,
      `SELECT number, source, created_at FROM unsubscribes
        WHERE account_id = $1 AND ($2::text IS NULL OR (number || ' 0' || substr(number, 3)) LIKE '%' || $2 || '%')
        ORDER BY created_at DESC, number LIMIT $3 OFFSET $4`,
      [accountId, digits, limit, offset],
    );
    return rows;
  }

  /** Every opt-out of the account, oldest first (the CSV export). */
  async all(accountId: number): Promise<UnsubscribeRow[]> {
    const { rows } = await sql<UnsubscribeRow>(this.dataSource, `SELECT number, source, created_at FROM unsubscribes WHERE account_id = $1 ORDER BY created_at, number`, [
      accountId,
    ]);
    return rows;
  }

  async find(accountId: number, number: string): Promise<UnsubscribeRow | null> {
    const { rows } = await sql<UnsubscribeRow>(this.dataSource, `SELECT number, source, created_at FROM unsubscribes WHERE account_id = $1 AND number = $2`, [accountId, number]);
    return rows[0] ?? null;
  }

  async delete(accountId: number, number: string, tx?: Tx): Promise<boolean> {
    const { rowCount } = await sql(tx ?? this.dataSource, `DELETE FROM unsubscribes WHERE account_id = $1 AND number = $2`, [accountId, number]);
    return rowCount > 0;
  }

  /** Which of these numbers have unsubscribed from the account: one query for a whole batch. */
  async filterUnsubscribed(accountId: number, numbers: string[], tx?: Tx): Promise<Set<string>> {
    if (numbers.length === 0) return new Set();
    const { rows } = await sql<{ number: string }>(tx ?? this.dataSource, `SELECT number FROM unsubscribes WHERE account_id = $1 AND number = ANY($2::text[])`, [
      accountId,
      numbers,
    ]);
    return new Set(rows.map((r) => r.number));
  }
}
