import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { sql } from '../database/sql';
import { MESSAGE_STATUS, WITH_PART_STATUS } from '../delivery/state/message-status';
import type { PartStatus } from '../delivery/state/message-part.entity';
import type { MessageStatus } from './message.entity';

export interface SendSummaryRow {
  id: number;
  kind: 'batch' | 'list';
  created_at: Date;
  scheduled_for: Date | null;
  message_count: number;
  total_cost: number;
  counts: Record<MessageStatus, number>;
}

export interface MessageDetailRow {
  id: string;
  send_id: number;
  to_number: string;
  sender: string;
  body: string;
  custom_ref: string | null;
  status: MessageStatus;
  cost: number;
  encoding: 'gsm7' | 'ucs2';
  parts: number;
  scheduled_for: Date | null;
  created_at: Date;
}

export interface PartRow {
  part_number: number;
  total_parts: number;
  status: PartStatus;
  error: string | null;
  submitted_at: Date;
  receipt_at: Date | null;
  receipt_stat: string | null;
  receipt_err: string | null;
  receipt_done_at: Date | null;
}

/** Reads for people looking at their account: the latest sends with their counts, one message in full. */
@Injectable()
export class MessageActivityRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The account's latest sends, each with its messages counted by status, in one statement. */
  async recentSends(accountId: number, limit: number): Promise<SendSummaryRow[]> {
    const { rows } = await sql<Omit<SendSummaryRow, 'counts'> & Record<MessageStatus, number>>(
      this.dataSource,
      `SELECT s.id, s.kind, s.created_at, s.scheduled_for, s.message_count, s.total_cost,
              count(m.id) FILTER (WHERE ${MESSAGE_STATUS} = 'pending')::int AS pending,
              count(m.id) FILTER (WHERE ${MESSAGE_STATUS} = 'scheduled')::int AS scheduled,
              count(m.id) FILTER (WHERE ${MESSAGE_STATUS} = 'sent')::int AS sent,
              count(m.id) FILTER (WHERE ${MESSAGE_STATUS} = 'delivered')::int AS delivered,
              count(m.id) FILTER (WHERE ${MESSAGE_STATUS} = 'failed')::int AS failed,
              count(m.id) FILTER (WHERE ${MESSAGE_STATUS} = 'cancelled')::int AS cancelled
         FROM (SELECT * FROM sends WHERE account_id = $1 ORDER BY id DESC LIMIT $2) s
         LEFT JOIN messages m ON m.send_id = s.id
         ${WITH_PART_STATUS}
        GROUP BY s.id, s.kind, s.created_at, s.scheduled_for, s.message_count, s.total_cost
        ORDER BY s.id DESC`,
      [accountId, limit],
    );
    return rows.map((r) => ({
      id: Number(r.id),
      kind: r.kind,
      created_at: r.created_at,
      scheduled_for: r.scheduled_for,
      message_count: r.message_count,
      total_cost: Number(r.total_cost),
      counts: { pending: r.pending, scheduled: r.scheduled, sent: r.sent, delivered: r.delivered, failed: r.failed, cancelled: r.cancelled },
    }));
  }

  async message(accountId: number, messageId: string): Promise<MessageDetailRow | null> {
    const { rows } = await sql<MessageDetailRow>(
      this.dataSource,
      `SELECT m.id, m.send_id, m.to_number, m.sender, m.body, m.custom_ref, ${MESSAGE_STATUS} AS status, m.cost, m.encoding, m.parts, m.scheduled_for, m.created_at
         FROM messages m ${WITH_PART_STATUS} WHERE m.account_id = $1 AND m.id = $2`,
      [accountId, messageId],
    );
    return rows[0] ? { ...rows[0], send_id: Number(rows[0].send_id), cost: Number(rows[0].cost) } : null;
  }

  /** The message's parts as submitted, each with the carrier receipt that settled it (if any). */
  async parts(accountId: number, messageId: string): Promise<PartRow[]> {
    const { rows } = await sql<PartRow>(
      this.dataSource,
      `SELECT p.part_number, p.total_parts, p.status, p.error, p.submitted_at, p.receipt_at,
              p.receipt_stat, p.receipt_err, CASE WHEN p.receipt_stat IS NOT NULL THEN p.receipt_at END AS receipt_done_at
         FROM message_parts p
         JOIN messages m ON m.id = p.message_id AND m.account_id = $1
        WHERE p.message_id = $2
        ORDER BY p.part_number`,
      [accountId, messageId],
    );
    return rows;
  }
}
