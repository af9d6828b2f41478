import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { sql } from '../database/sql';
import { MESSAGE_STATUS, WITH_PART_STATUS } from '../delivery/state/message-status';
import { FAILURE_REASON } from './failure-reason';

export interface ReportDayRow {
  /** The account's calendar day, `YYYY-MM-DD`. */
  day: string;
  messages: number;
  parts: number;
  delivered: number;
  failed: number;
  /** Hundredths of a credit, cancelled messages left out (they were refunded). */
  cost: number;
}

export interface ReportPeriod {
  from: Date;
  toExclusive: Date;
  /** The account's zone: days are its calendar days. */
  timeZone: string;
}

/**
 * The reports page's figures for a period, each one set-based statement grouped by the account's
 * calendar day (PostgreSQL's AT TIME ZONE with the account's IANA zone), or by failure reason.
 */
@Injectable()
export class ReportReadsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async days(accountId: number, period: ReportPeriod): Promise<ReportDayRow[]> {
    const { rows } = await sql<ReportDayRow>(
      this.dataSource,
      `SELECT to_char(m.created_at AT TIME ZONE $4, 'YYYY-MM-DD') AS day,
              count(*)::int AS messages,
              sum(m.parts)::int AS parts,
              count(*) FILTER (WHERE ${MESSAGE_STATUS} = 'delivered')::int AS delivered,
              count(*) FILTER (WHERE ${MESSAGE_STATUS} = 'failed')::int AS failed,
              coalesce(sum(m.cost) FILTER (WHERE m.status <> 'cancelled'), 0)::bigint AS cost
         FROM messages m ${WITH_PART_STATUS}
        WHERE m.account_id = $1 AND m.created_at >= $2 AND m.created_at < $3
        GROUP BY 1
        ORDER BY 1`,
      [accountId, period.from.toISOString(), period.toExclusive.toISOString(), period.timeZone],
    );
    return rows.map((r) => ({ ...r, cost: Number(r.cost) }));
  }

  async failureReasons(accountId: number, period: ReportPeriod): Promise<Array<{ reason: string; messages: number }>> {
    const { rows } = await sql<{ reason: string; messages: number }>(
      this.dataSource,
      `SELECT reason, count(DISTINCT message_id)::int AS messages
         FROM (SELECT p.message_id, ${FAILURE_REASON} AS reason
                 FROM message_parts p
                 JOIN messages m ON m.id = p.message_id
                WHERE m.account_id = $1 AND m.created_at >= $2 AND m.created_at < $3 AND p.status = 'failed') f
        GROUP BY reason
        ORDER BY messages DESC, reason`,
      [accountId, period.from.toISOString(), period.toExclusive.toISOString()],
    );
    return rows;
  }
}
