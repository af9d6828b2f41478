import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { sql } from '../database/sql';
import { Tx } from '../database/unit-of-work';

export interface AutoRechargeRecord {
  enabled: boolean;
  belowCredits: number;
  buyCredits: number;
  cardId: number;
  maxPerDay: number;
  stoppedReason: string;
}

const COLUMNS = `enabled, below_credits AS "belowCredits", buy_credits AS "buyCredits", card_id AS "cardId", max_per_day AS "maxPerDay", stopped_reason AS "stoppedReason"`;

@Injectable()
export class AutoRechargesRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async get(accountId: number, tx?: Tx): Promise<AutoRechargeRecord | null> {
    const { rows } = await sql<AutoRechargeRecord>(tx ?? this.dataSource, `SELECT ${COLUMNS} FROM auto_recharges WHERE account_id = $1`, [accountId]);
    return rows[0] ?? null;
  }

  async save(accountId: number, r: Omit<AutoRechargeRecord, 'stoppedReason'>, at: Date, tx: Tx): Promise<void> {
    await sql(
      tx,
      `INSERT INTO auto_recharges (account_id, enabled, below_credits, buy_credits, card_id, max_per_day, stopped_reason, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, '', $7)
       ON CONFLICT (account_id) DO UPDATE SET enabled = $2, below_credits = $3, buy_credits = $4, card_id = $5, max_per_day = $6, stopped_reason = '', updated_at = $7`,
      [accountId, r.enabled, r.belowCredits, r.buyCredits, r.cardId, r.maxPerDay, at.toISOString()],
    );
  }

  /** Switches it off by itself (a declined charge); true when it was on. */
  async stop(accountId: number, reason: string, at: Date, tx: Tx): Promise<boolean> {
    const { rowCount } = await sql(tx, `UPDATE auto_recharges SET enabled = false, stopped_reason = $2, updated_at = $3 WHERE account_id = $1 AND enabled`, [
      accountId,
      reason,
      at.toISOString(),
    ]);
    return rowCount > 0;
  }
}
