import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { Page } from '../common/http/pagination';
import { paged, sql } from '../database/sql';
import { Tx } from '../database/unit-of-work';

export interface NewAuditEntry {
  accountId: number;
  userId: number | null;
  actor: string;
  action: string;
  detail: string;
  ip: string;
  at: Date;
}

export interface AuditRow {
  id: number;
  actor: string;
  action: string;
  detail: string;
  ip: string;
  created_at: Date;
}

@Injectable()
export class AuditLogRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async insert(entry: NewAuditEntry, tx?: Tx): Promise<void> {
    await sql(tx ?? this.dataSource, `INSERT INTO audit_log (account_id, user_id, actor, action, detail, ip, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)`, [
      entry.accountId,
      entry.userId,
      entry.actor,
      entry.action,
      entry.detail,
      entry.ip,
      entry.at.toISOString(),
    ]);
  }

  async page(accountId: number, page: Page): Promise<{ total: number; rows: AuditRow[] }> {
    const p = paged([accountId], page);
    const [count, rows] = await Promise.all([
      sql<{ total: number }>(this.dataSource, `SELECT count(*)::int AS total FROM audit_log WHERE account_id = $1`, [accountId]),
      sql<AuditRow>(this.dataSource, `SELECT id, actor, action, detail, ip, created_at FROM audit_log WHERE account_id = $1 ORDER BY id DESC ${p.clause}`, p.params),
    ]);
    return { total: count.rows[0].total, rows: rows.rows };
  }
}
