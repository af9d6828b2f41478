import { Injectable } from '@nestjs/common';
import { Tx } from '../database/unit-of-work';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { Page } from '../common/http/pagination';
import { paged, sql } from '../database/sql';

export type InboundType = 'inbound' | 'unsubscribe';

export interface InboundRow {
  id: string;
  from_number: string;
  to_number: string;
  body: string;
  type: InboundType;
  original_message_id: string | null;
  original_custom_ref: string | null;
  received_at: Date;
}

export interface InboundFilter {
  type?: InboundType;
  from?: Date;
  toExclusive?: Date;
}

@Injectable()
export class InboundRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Accounts whose active dedicated or shared number this is, oldest sender first. */
  async ownersOfNumber(number: string): Promise<number[]> {
    const { rows } = await sql<{ account_id: number }>(
      this.dataSource,
      `SELECT account_id FROM senders WHERE value = $1 AND status = 'active' AND type IN ('dedicated', 'shared') ORDER BY id`,
      [number],
    );
    return rows.map((r) => r.account_id);
  }

  /** The most recent outbound message from an account number to a mobile, across the given accounts. */
  async lastOutbound(accountIds: number[], sender: string, mobile: string): Promise<{ account_id: number; id: string; custom_ref: string | null } | null> {
    const { rows } = await sql<{ account_id: number; id: string; custom_ref: string | null }>(
      this.dataSource,
      `SELECT account_id, id, custom_ref FROM messages
        WHERE sender = $1 AND to_number = $2 AND account_id = ANY($3::int[])
        ORDER BY created_at DESC, seq DESC LIMIT 1`,
      [sender, mobile, accountIds],
    );
    return rows[0] ?? null;
  }

  /** The message a link opt-out answers: the link's own, else the account's last one to the number. */
  async originalForLinkOptOut(accountId: number, mobile: string, messageId: string | null, tx: Tx): Promise<{ id: string; sender: string; custom_ref: string | null } | null> {
    const { rows } = await sql<{ id: string; sender: string; custom_ref: string | null }>(
      tx,
      `SELECT id, sender, custom_ref FROM messages
        WHERE account_id = $1 AND to_number = $2 AND ($3::uuid IS NULL OR id = $3::uuid)
        ORDER BY created_at DESC, seq DESC LIMIT 1`,
      [accountId, mobile, messageId],
    );
    return rows[0] ?? null;
  }

  async insert(
    row: {
      id: string;
      accountId: number;
      from: string;
      to: string;
      body: string;
      type: InboundType;
      originalMessageId: string | null;
      originalCustomRef: string | null;
      keywordRule?: { ruleId: number | null; keyword: string } | null;
      receivedAt: Date;
    },
    tx: Tx,
  ): Promise<void> {
    await sql(
      tx,
      `INSERT INTO inbound_messages (id, account_id, from_number, to_number, body, type, original_message_id, original_custom_ref, received_at, keyword_rule_id, keyword)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
      [
        row.id,
        row.accountId,
        row.from,
        row.to,
        row.body,
        row.type,
        row.originalMessageId,
        row.originalCustomRef,
        row.receivedAt.toISOString(),
        row.keywordRule?.ruleId ?? null,
        row.keywordRule?.keyword ?? null,
      ],
    );
  }

  async page(accountId: number, filter: InboundFilter, page: Page): Promise<{ total: number; rows: InboundRow[] }> {
    const where = ['account_id = $1'];
    const params: unknown[] = [accountId];
    if (filter.type) {
      params.push(filter.type);
      where.push(`type = $${params.length}`);
    }
    if (filter.from) {
      params.push(filter.from.toISOString());
      where.push(`received_at >= $${params.length}`);
    }
    if (filter.toExclusive) {
      params.push(filter.toExclusive.toISOString());
      where.push(`received_at < $${params.length}`);
    }
    const condition = where.join(' AND ');
    const pageParams = paged(params, page);
    const [count, rows] = await Promise.all([
      sql<{ total: number }>(this.dataSource, `SELECT count(*) AS total FROM inbound_messages WHERE ${condition}`, params),
      sql<InboundRow>(
        this.dataSource,
        `SELECT id, from_number, to_number, body, type, original_message_id, original_custom_ref, received_at FROM inbound_messages
          WHERE ${condition} ORDER BY received_at DESC, seq DESC ${pageParams.clause}`,
        pageParams.params,
      ),
    ]);
    return { total: count.rows[0].total, rows: rows.rows };
  }

  /** The account's first dedicated or shared number (test-inbound's default `to`). */
  async firstReceivingNumber(accountId: number): Promise<string | null> {
    const { rows } = await sql<{ value: string }>(
      this.dataSource,
      `SELECT value FROM senders WHERE account_id = $1 AND status = 'active' AND type IN ('dedicated', 'shared') ORDER BY id LIMIT 1`,
      [accountId],
    );
    return rows[0]?.value ?? null;
  }
}
