import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { sql } from '../database/sql';
import { Tx } from '../database/unit-of-work';
import type { CrossingKind } from './balance-crossing.entity';

export interface UnhandledCrossing {
  id: number;
  accountId: number;
  kind: CrossingKind;
  threshold: number;
  balanceAfter: number;
  crossedAt: Date;
}

const COLUMNS = `id, account_id AS "accountId", kind, threshold, balance_after AS "balanceAfter", crossed_at AS "crossedAt"`;

@Injectable()
export class BalanceCrossingsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** In the debit's transaction: one row per crossed threshold (one statement). */
  async record(accountId: number, crossed: ReadonlyArray<{ kind: CrossingKind; threshold: number }>, balanceAfter: number, at: Date, tx: Tx): Promise<number[]> {
    const { rows } = await sql<{ id: number }>(
      tx,
      `INSERT INTO balance_crossings (account_id, kind, threshold, balance_after, crossed_at)
       SELECT $1, kind, threshold, $4, $5 FROM unnest($2::text[], $3::bigint[]) AS c(kind, threshold) RETURNING id`,
      [accountId, crossed.map((c) => c.kind), crossed.map((c) => c.threshold), balanceAfter, at.toISOString()],
    );
    return rows.map((r) => r.id);
  }

  async unhandled(id: number): Promise<UnhandledCrossing | null> {
    const { rows } = await sql<UnhandledCrossing>(this.dataSource, `SELECT ${COLUMNS} FROM balance_crossings WHERE id = $1 AND handled_at IS NULL`, [id]);
    return rows[0] ?? null;
  }

  /** Crossings nobody handled (a lost job, a crash) that are older than `before`, oldest first. */
  async unhandledBefore(before: Date, limit: number): Promise<number[]> {
    const { rows } = await sql<{ id: number }>(this.dataSource, `SELECT id FROM balance_crossings WHERE handled_at IS NULL AND crossed_at < $1 ORDER BY crossed_at LIMIT $2`, [
      before.toISOString(),
      limit,
    ]);
    return rows.map((r) => r.id);
  }

  /** Marks it handled, once: true for the one caller that did. */
  async markHandled(id: number, outcome: string, at: Date, tx?: Tx): Promise<boolean> {
    const { rowCount } = await sql(tx ?? this.dataSource, `UPDATE balance_crossings SET handled_at = $2, outcome = $3 WHERE id = $1 AND handled_at IS NULL`, [
      id,
      at.toISOString(),
      outcome,
    ]);
    return rowCount > 0;
  }

  /** The account's latest crossings, newest first (the Billing page shows what auto-recharge did). */
  async latest(accountId: number, limit: number): Promise<Array<UnhandledCrossing & { handledAt: Date | null; outcome: string }>> {
    const { rows } = await sql<UnhandledCrossing & { handledAt: Date | null; outcome: string }>(
      this.dataSource,
      `SELECT ${COLUMNS}, handled_at AS "handledAt", outcome FROM balance_crossings WHERE account_id = $1 ORDER BY id DESC LIMIT $2`,
      [accountId, limit],
    );
    return rows;
  }
}
