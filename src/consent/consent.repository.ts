import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { Page } from '../common/http/pagination';
import { paged, sql } from '../database/sql';
import { Tx } from '../database/unit-of-work';
import type { ConsentChange, ConsentSource } from './consent-record.entity';

export interface ConsentEvidence {
  inboundMessageId?: string | null;
  messageId?: string | null;
  clientAddress?: string | null;
  apiKeyId?: number | null;
  userId?: number | null;
  detail?: string | null;
}

export interface ConsentRow {
  number: string;
  change: ConsentChange;
  source: ConsentSource;
  inbound_message_id: string | null;
  message_id: string | null;
  client_address: string | null;
  api_key_id: number | null;
  user_id: number | null;
  detail: string | null;
  recorded_at: Date;
}

export interface ConsentFilter {
  number?: string;
  from?: Date;
  toExclusive?: Date;
}

const COLUMNS = 'number, change, source, inbound_message_id, message_id, client_address, api_key_id, user_id, detail, recorded_at';

@Injectable()
export class ConsentRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async append(accountId: number, number: string, change: ConsentChange, source: ConsentSource, e: ConsentEvidence, tx: Tx): Promise<void> {
    await sql(
      tx,
      `INSERT INTO consent_records (account_id, number, change, source, inbound_message_id, message_id, client_address, api_key_id, user_id, detail)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
      [accountId, number, change, source, e.inboundMessageId ?? null, e.messageId ?? null, e.clientAddress ?? null, e.apiKeyId ?? null, e.userId ?? null, e.detail ?? null],
    );
  }

  /** One change of many numbers with one piece of evidence (an import's chunk): one statement, however many numbers. */
  async appendMany(accountId: number, numbers: string[], change: ConsentChange, source: ConsentSource, e: ConsentEvidence, tx: Tx): Promise<void> {
    if (numbers.length === 0) return;
    await sql(
      tx,
      `INSERT INTO consent_records (account_id, number, change, source, inbound_message_id, message_id, client_address, api_key_id, user_id, detail)
       SELECT $1, n, $3, $4, $5, $6, $7, $8, $9, $10 FROM unnest($2::text[]) AS n`,
      [accountId, numbers, change, source, e.inboundMessageId ?? null, e.messageId ?? null, e.clientAddress ?? null, e.apiKeyId ?? null, e.userId ?? null, e.detail ?? null],
    );
  }

  private where(accountId: number, filter: ConsentFilter): { condition: string; params: unknown[] } {
    const where = ['account_id = $1'];
    const params: unknown[] = [accountId];
    if (filter.number) where.push(`number = $${params.push(filter.number)}`);
    if (filter.from) where.push(`recorded_at >= $${params.push(filter.from.toISOString())}`);
    if (filter.toExclusive) where.push(`recorded_at < $${params.push(filter.toExclusive.toISOString())}`);
    return { condition: where.join(' AND '), params };
  }

  async page(accountId: number, filter: ConsentFilter, page: Page): Promise<{ total: number; rows: ConsentRow[] }> {
    const { condition, params } = this.where(accountId, filter);
    const p = paged(params, page);
    const [count, rows] = await Promise.all([
      sql<{ total: number }>(this.dataSource, `SELECT count(*)::int AS total FROM consent_records WHERE ${condition}`, params),
      sql<ConsentRow>(this.dataSource, `SELECT ${COLUMNS} FROM consent_records WHERE ${condition} ORDER BY recorded_at, id ${p.clause}`, p.params),
    ]);
    return { total: count.rows[0].total, rows: rows.rows };
  }

  /** Every record the filter selects, oldest first, for an export (at most `cap`). */
  async all(accountId: number, filter: ConsentFilter, cap: number): Promise<ConsentRow[]> {
    const { condition, params } = this.where(accountId, filter);
    const { rows } = await sql<ConsentRow>(this.dataSource, `SELECT ${COLUMNS} FROM consent_records WHERE ${condition} ORDER BY recorded_at, id LIMIT ${cap}`, params);
    return rows;
  }
}
