import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { sql } from '../database/sql';
import { MESSAGE_STATUS, PARTS_STATUS, WITH_PART_STATUS } from '../delivery/state/message-status';
import { FAILURE_REASON } from './failure-reason';
import type { MessageStatus } from './message.entity';

export type StatusCounts = Record<MessageStatus, number>;

export interface CampaignRow {
  id: number;
  kind: 'batch' | 'list';
  created_at: Date;
  /** When its first message goes: the time asked for, or later where quiet hours moved it (null: sent at once). */
  scheduled_for: Date | null;
  stagger_minutes: number | null;
  message_count: number;
  total_cost: number;
  list_name: string | null;
  sent_by: string | null;
  sender: string | null;
  body: string | null;
  counts: StatusCounts;
  /** Hundredths of a credit: what the cancelled messages cost, refunded when they were cancelled. */
  cancelled_cost: number;
  /** Recipients refused when the send was accepted (unsubscribed): they never became messages. */
  blocked: number;
  clicks: number;
  /** Replies to the send's messages (inbound correlated to one of them; STOP replies are opt-outs, not replies). */
  replies: number;
  /** Numbers that opted out through one of the send's messages: a STOP reply to it, or its opt-out link. */
  opt_outs: number;
}

export interface FailureReasonRow {
  reason: string;
  messages: number;
}

/** Each send's messages counted by their read status, one statement for all the sends asked for. */
const COUNTS = `
  SELECT m.send_id,
         count(*) FILTER (WHERE ${MESSAGE_STATUS} = 'pending')::int AS pending,
         count(*) FILTER (WHERE ${MESSAGE_STATUS} = 'scheduled')::int AS scheduled,
         count(*) FILTER (WHERE ${MESSAGE_STATUS} = 'sent')::int AS sent,
         count(*) FILTER (WHERE ${MESSAGE_STATUS} = 'delivered')::int AS delivered,
         count(*) FILTER (WHERE ${MESSAGE_STATUS} = 'failed')::int AS failed,
         count(*) FILTER (WHERE ${MESSAGE_STATUS} = 'cancelled')::int AS cancelled,
         coalesce(sum(m.cost) FILTER (WHERE m.status = 'cancelled'), 0)::bigint AS cancelled_cost
    FROM messages m ${WITH_PART_STATUS}
   WHERE m.account_id = $1 AND m.send_id = ANY (SELECT id FROM chosen)
   GROUP BY m.send_id`;

/**
 * What followed the chosen sends, each read from its own table from the oldest chosen send's creation on
 * (the index on account and time bounds it), then matched to the send through the message it names:
 * replies by the message they answer, opt-outs by their consent record's evidence (the message whose
 * link was used, or the STOP reply's message).
 */
const FOLLOWED = `
  since AS (SELECT min(created_at) AS at FROM sends WHERE account_id = $1 AND id = ANY (SELECT id FROM chosen)),
  replies AS (
    SELECT m.send_id, count(*)::int AS replies
      FROM inbound_messages i
      JOIN messages m ON m.id = i.original_message_id
     WHERE i.account_id = $1 AND i.type = 'inbound' AND i.received_at >= (SELECT at FROM since)
       AND m.account_id = $1 AND m.send_id = ANY (SELECT id FROM chosen)
     GROUP BY m.send_id),
  opt_outs AS (
    SELECT m.send_id, count(DISTINCT c.number)::int AS opt_outs
      FROM consent_records c
      LEFT JOIN inbound_messages i ON i.id = c.inbound_message_id
      JOIN messages m ON m.id = coalesce(c.message_id, i.original_message_id)
     WHERE c.account_id = $1 AND c.change = 'opt_out' AND c.recorded_at >= (SELECT at FROM since)
       AND m.account_id = $1 AND m.send_id = ANY (SELECT id FROM chosen)
     GROUP BY m.send_id)`;

/**
 * The dashboard's campaign reads: an account's sends (batch and list, never the platform's own) with
 * their messages counted by status, the clicks on their links and their first message, and a send's
 * failures grouped by reason. Set-based: one statement per page of sends, whatever their size. Counted
 * live rather than kept in counters: a message's status is read (message-status.ts), never written
 * after dispatch, so a counter would have to be kept by the receipt path; a million-message send counts
 * in the time bench:export prints, and the page's polls back off with it.
 */
@Injectable()
export class CampaignReadsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Sends newest first, older than `beforeId` when given. */
  async page(accountId: number, beforeId: number | null, limit: number): Promise<CampaignRow[]> {
    return this.read(accountId, `SELECT id FROM sends WHERE account_id = $1 AND kind IN ('batch', 'list') AND ($2::bigint IS NULL OR id < $2) ORDER BY id DESC LIMIT $3`, [
      beforeId,
      limit,
    ]);
  }

  async one(accountId: number, sendId: number): Promise<CampaignRow | null> {
    const rows = await this.read(accountId, `SELECT id FROM sends WHERE account_id = $1 AND id = $2 AND kind IN ('batch', 'list')`, [sendId]);
    return rows[0] ?? null;
  }

  /** Failed messages by reason: the carrier's error code where its receipt gave one, else the refusal's text. */
  async failureReasons(accountId: number, sendId: number): Promise<FailureReasonRow[]> {
    const { rows } = await sql<FailureReasonRow>(
      this.dataSource,
      `SELECT reason, count(DISTINCT message_id)::int AS messages
         FROM (SELECT p.message_id,
                      ${FAILURE_REASON} AS reason
                 FROM message_parts p
                 JOIN messages m ON m.id = p.message_id
                WHERE m.account_id = $1 AND m.send_id = $2 AND p.status = 'failed') f
        GROUP BY reason
        ORDER BY messages DESC, reason`,
      [accountId, sendId],
    );
    return rows;
  }

  /**
   * The send's messages that reached an outcome, counted by the minute they reached it (their last part's
   * receipt, or its submission when the carrier refused it there), oldest first. Set-based: the send's
   * messages by their send index, their parts by key.
   */
  async outcomesByMinute(accountId: number, sendId: number): Promise<Array<{ minute: Date; delivered: number; failed: number }>> {
    const { rows } = await sql<{ minute: Date; delivered: number; failed: number }>(
      this.dataSource,
      `SELECT date_trunc('minute', outcome_at) AS minute,
              count(*) FILTER (WHERE status = 'delivered')::int AS delivered,
              count(*) FILTER (WHERE status = 'failed')::int AS failed
         FROM (SELECT ${PARTS_STATUS} AS status,
                      max(coalesce(p.receipt_at, p.submitted_at)) AS outcome_at
                 FROM messages m
                 JOIN message_parts p ON p.message_id = m.id
                WHERE m.account_id = $1 AND m.send_id = $2
                GROUP BY m.id) o
        WHERE status <> 'sent'
        GROUP BY 1
        ORDER BY 1`,
      [accountId, sendId],
    );
    return rows;
  }

  private async read(accountId: number, chosen: string, params: unknown[]): Promise<CampaignRow[]> {
    const { rows } = await sql<Omit<CampaignRow, 'counts'> & StatusCounts>(
      this.dataSource,
      `WITH chosen AS (${chosen}),
            counts AS (${COUNTS}),
            clicks AS (SELECT l.send_id, sum(l.clicks)::int AS clicks FROM short_links l
                        WHERE l.account_id = $1 AND l.kind = 'url' AND l.send_id = ANY (SELECT id FROM chosen) GROUP BY l.send_id),
            ${FOLLOWED}
       SELECT s.id, s.kind, s.created_at, coalesce(first.scheduled_for, s.scheduled_for) AS scheduled_for, s.stagger_minutes, s.message_count, s.total_cost,
              l.name AS list_name, u.email AS sent_by, first.sender, first.body,
              coalesce(c.pending, 0) AS pending, coalesce(c.scheduled, 0) AS scheduled, coalesce(c.sent, 0) AS sent,
              coalesce(c.delivered, 0) AS delivered, coalesce(c.failed, 0) AS failed, coalesce(c.cancelled, 0) AS cancelled,
              coalesce(c.cancelled_cost, 0) AS cancelled_cost, s.blocked_count AS blocked, coalesce(k.clicks, 0) AS clicks,
              coalesce(r.replies, 0) AS replies, coalesce(o.opt_outs, 0) AS opt_outs
         FROM sends s
         JOIN chosen ON chosen.id = s.id
         LEFT JOIN contact_lists l ON l.id = s.list_id AND l.account_id = s.account_id
         LEFT JOIN users u ON u.id = s.user_id
         LEFT JOIN counts c ON c.send_id = s.id
         LEFT JOIN clicks k ON k.send_id = s.id
         LEFT JOIN replies r ON r.send_id = s.id
         LEFT JOIN opt_outs o ON o.send_id = s.id
         LEFT JOIN LATERAL (SELECT m.sender, m.body, m.scheduled_for FROM messages m WHERE m.account_id = s.account_id AND m.send_id = s.id ORDER BY m.dispatch_at, m.seq LIMIT 1) first ON true
        WHERE s.account_id = $1
        ORDER BY s.id DESC`,
      [accountId, ...params],
    );
    return rows.map((r) => ({
      id: Number(r.id),
      kind: r.kind,
      created_at: r.created_at,
      scheduled_for: r.scheduled_for,
      stagger_minutes: r.stagger_minutes,
      message_count: r.message_count,
      total_cost: Number(r.total_cost),
      list_name: r.list_name,
      sent_by: r.sent_by,
      sender: r.sender,
      body: r.body,
      counts: { pending: r.pending, scheduled: r.scheduled, sent: r.sent, delivered: r.delivered, failed: r.failed, cancelled: r.cancelled },
      cancelled_cost: Number(r.cancelled_cost),
      blocked: r.blocked,
      clicks: r.clicks,
      replies: r.replies,
      opt_outs: r.opt_outs,
    }));
  }
}
