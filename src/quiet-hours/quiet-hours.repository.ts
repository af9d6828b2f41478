import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { sql } from '../database/sql';
import { Tx } from '../database/unit-of-work';

export interface QuietHoursRow {
  enabled: boolean;
  allowed_from: number;
  allowed_until: number;
  days: number[];
  skip_dates: string[];
  zone_field: string | null;
}

export const QUIET_HOURS_DEFAULTS: QuietHoursRow = { enabled: false, allowed_from: 540, allowed_until: 1200, days: [1, 2, 3, 4, 5, 6], skip_dates: [], zone_field: null };

@Injectable()
export class QuietHoursRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The account's setting, or the defaults (off) when it never saved one. */
  async find(accountId: number, tx?: Tx): Promise<QuietHoursRow> {
    const { rows } = await sql<QuietHoursRow>(
      tx ?? this.dataSource,
      `SELECT enabled, allowed_from, allowed_until, days, to_json(skip_dates) AS skip_dates, zone_field FROM quiet_hours WHERE account_id = $1`,
      [accountId],
    );
    return rows[0] ?? QUIET_HOURS_DEFAULTS;
  }

  async save(accountId: number, s: QuietHoursRow, tx?: Tx): Promise<void> {
    await sql(
      tx ?? this.dataSource,
      `INSERT INTO quiet_hours (account_id, enabled, allowed_from, allowed_until, days, skip_dates, zone_field)
       VALUES ($1, $2, $3, $4, $5::smallint[], $6::date[], $7)
       ON CONFLICT (account_id) DO UPDATE SET enabled = EXCLUDED.enabled, allowed_from = EXCLUDED.allowed_from, allowed_until = EXCLUDED.allowed_until,
         days = EXCLUDED.days, skip_dates = EXCLUDED.skip_dates, zone_field = EXCLUDED.zone_field, updated_at = now()`,
      [accountId, s.enabled, s.allowed_from, s.allowed_until, s.days, s.skip_dates, s.zone_field],
    );
  }

  /**
   * For each (moment, zone), the first moment at or after it inside the window in that zone (null when
   * the window never opens within a year): one statement for a whole send, distinct pairs computed once.
   */
  async nextAllowed(moments: Date[], zones: string[], s: QuietHoursRow): Promise<Array<Date | null>> {
    const { rows } = await sql<{ next: Date | null }>(
      this.dataSource,
      `WITH wanted AS (SELECT at, zone, ord FROM unnest($1::timestamptz[], $2::text[]) WITH ORDINALITY AS t(at, zone, ord)),
            pairs AS (SELECT DISTINCT at, zone FROM wanted),
            answered AS (SELECT at, zone, quiet_hours_next(at, zone, $3, $4, $5::smallint[], $6::date[]) AS next FROM pairs)
       SELECT a.next FROM wanted w JOIN answered a USING (at, zone) ORDER BY w.ord`,
      [moments.map((m) => m.toISOString()), zones, s.allowed_from, s.allowed_until, s.days, s.skip_dates],
    );
    return rows.map((r) => r.next);
  }
}
