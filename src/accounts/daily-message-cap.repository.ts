import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { sql } from '../database/sql';
import { Tx } from '../database/unit-of-work';

@Injectable()
export class DailyMessageCapRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The key's cap (null: none) and the day `at` falls on in its account's time zone. */
  async capAndDay(apiKeyId: number, at: Date, tx: Tx): Promise<{ cap: number | null; day: string } | null> {
    const { rows } = await sql<{ cap: number | null; day: string }>(
      tx,
      `SELECT k.daily_message_cap AS cap, to_char(($2::timestamptz AT TIME ZONE a.time_zone)::date, 'YYYY-MM-DD') AS day
         FROM api_keys k JOIN accounts a ON a.id = k.account_id WHERE k.id = $1`,
      [apiKeyId, at],
    );
    return rows[0] ?? null;
  }

  /**
   * Adds `count` to the key's messages of `day` unless that takes it over `cap`; false when it would.
   * One upsert holding the key's counter row until the transaction ends, so concurrent sends queue
   * on it and each sees the others' committed counts (a refused or failed send rolls its count back).
   */
  async take(apiKeyId: number, day: string, count: number, cap: number, tx: Tx): Promise<boolean> {
    const { rows } = await sql<{ messages: number }>(
      tx,
      `INSERT INTO api_key_daily_messages AS d (api_key_id, day, messages) VALUES ($1, $2, $3)
       ON CONFLICT (api_key_id) DO UPDATE
          SET day = EXCLUDED.day,
              messages = CASE WHEN d.day = EXCLUDED.day THEN d.messages + EXCLUDED.messages ELSE EXCLUDED.messages END
        WHERE (CASE WHEN d.day = EXCLUDED.day THEN d.messages + EXCLUDED.messages ELSE EXCLUDED.messages END) <= $4
       RETURNING d.messages`,
      [apiKeyId, day, count, cap],
    );
    return rows.length > 0;
  }

  /** Messages the key has sent on `day` (0 when its counter is of another day). */
  async sentOn(apiKeyId: number, day: string): Promise<number> {
    const { rows } = await sql<{ messages: number }>(this.dataSource, `SELECT messages FROM api_key_daily_messages WHERE api_key_id = $1 AND day = $2`, [apiKeyId, day]);
    return rows[0]?.messages ?? 0;
  }
}
