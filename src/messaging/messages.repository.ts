import { Injectable } from '@nestjs/common';
import { Tx } from '../database/unit-of-work';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { Page } from '../common/http/pagination';
import { keyLookupsOnly, paged, sql } from '../database/sql';
import type { CancelledMessage } from '../webhooks/webhook-events.service';
import type { MessageStatus } from './message.entity';
import { inBatch, NO_PART, unclaimed, UNDISPATCHED } from './dispatch-order';
import { IN_RELEASED_BATCH, MESSAGE_STATUS, WITH_PART_STATUS } from './message-status';

export interface NewMessage {
  id: string;
  to: string;
  sender: string;
  senderType: string;
  body: string;
  customRef: string | null;
  status: 'pending' | 'scheduled';
  encoding: 'gsm7' | 'ucs2';
  parts: number;
  cost: number;
  scheduledFor: Date | null;
  dispatchAt: Date;
}

export interface MessageRow {
  id: string;
  send_id: number;
  to_number: string;
  sender: string;
  body: string;
  custom_ref: string | null;
  status: MessageStatus;
  cost: number;
  scheduled_for: Date | null;
  created_at: Date;
}

export interface HistoryFilter {
  status?: MessageStatus;
  from?: Date;
  /** Exclusive upper bound. */
  toExclusive?: Date;
}

const ROW = `m.id, m.send_id, m.to_number, m.sender, m.body, m.custom_ref, ${MESSAGE_STATUS} AS status, m.cost, m.scheduled_for, m.created_at`;

/** A cancelled message: its refund and what its `cancelled` webhooks say. */
export interface CancelledMessageRecord extends CancelledMessage {
  cost: number;
}

const CANCELLED = `m.id, m.cost, m.parts, m.to_number AS "to", m.sender, m.body, m.custom_ref AS "customRef"`;
const UNCLAIMED = unclaimed('s');
const IN_BATCH = inBatch('b');

@Injectable()
export class MessagesRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * All of a send's messages in one statement, in the given order, and the send's last message in
   * dispatch order (where its dispatch watermark stops).
   */
  async insertMany(accountId: number, sendId: number, isTest: boolean, rows: NewMessage[], tx: Tx): Promise<void> {
    if (rows.length === 0) return;
    // Each row's foreign-key check finds its send by key: on a small, analysed `sends` (a hundred sends)
    // PostgreSQL's own plan for that check is a sequential scan, run once per message inserted.
    await keyLookupsOnly(tx);
    const col = <T>(pick: (r: NewMessage) => T) => rows.map(pick);
    await sql(
      tx,
      `WITH inserted AS (
         INSERT INTO messages (id, account_id, send_id, to_number, sender, sender_type, body, custom_ref, status, encoding, parts, cost, is_test, scheduled_for, dispatch_at)
         SELECT t.id, $1, $2, t.to_number, t.sender, t.sender_type, t.body, t.custom_ref, t.status, t.encoding, t.parts, t.cost, $3, t.scheduled_for, t.dispatch_at
           FROM unnest($4::uuid[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[], $11::text[], $12::smallint[], $13::bigint[], $14::timestamptz[], $15::timestamptz[])
                WITH ORDINALITY AS t(id, to_number, sender, sender_type, body, custom_ref, status, encoding, parts, cost, scheduled_for, dispatch_at, ord)
          ORDER BY t.ord
         RETURNING dispatch_at, seq
       )
       UPDATE sends SET (last_at, last_seq) = (SELECT dispatch_at, seq FROM inserted ORDER BY dispatch_at DESC, seq DESC LIMIT 1) WHERE id = $2`,
      [
        accountId,
        sendId,
        isTest,
        col((r) => r.id),
        col((r) => r.to),
        col((r) => r.sender),
        col((r) => r.senderType),
        col((r) => r.body),
        col((r) => r.customRef),
        col((r) => r.status),
        col((r) => r.encoding),
        col((r) => r.parts),
        col((r) => r.cost),
        col((r) => (r.scheduledFor ? r.scheduledFor.toISOString() : null)),
        col((r) => r.dispatchAt.toISOString()),
      ],
    );
  }

  async findById(accountId: number, messageId: string): Promise<MessageRow | null> {
    const { rows } = await sql<MessageRow>(this.dataSource, `SELECT ${ROW} FROM messages m ${WITH_PART_STATUS} WHERE m.account_id = $1 AND m.id = $2`, [accountId, messageId]);
    return rows[0] ?? null;
  }

  async findRecentByCustomRef(accountId: number, customRef: string, limit: number): Promise<MessageRow[]> {
    const { rows } = await sql<MessageRow>(
      this.dataSource,
      `SELECT ${ROW} FROM messages m ${WITH_PART_STATUS} WHERE m.account_id = $1 AND m.custom_ref = $2 ORDER BY m.created_at DESC, m.seq DESC LIMIT $3`,
      [accountId, customRef, limit],
    );
    return rows;
  }

  async history(accountId: number, filter: HistoryFilter, page: Page): Promise<{ total: number; rows: MessageRow[] }> {
    const where = ['m.account_id = $1'];
    const params: unknown[] = [accountId];
    if (filter.status) {
      params.push(filter.status);
      where.push(`${MESSAGE_STATUS} = $${params.length}`);
    }
    if (filter.from) {
      params.push(filter.from.toISOString());
      where.push(`m.created_at >= $${params.length}`);
    }
    if (filter.toExclusive) {
      params.push(filter.toExclusive.toISOString());
      where.push(`m.created_at < $${params.length}`);
    }
    const condition = where.join(' AND ');
    // The parts are read only when the status is asked for (count) or shown (the page's rows).
    const statusJoin = filter.status ? WITH_PART_STATUS : '';
    const pageParams = paged(params, page);
    const [count, rows] = await Promise.all([
      sql<{ total: number }>(this.dataSource, `SELECT count(*) AS total FROM messages m ${statusJoin} WHERE ${condition}`, params),
      sql<MessageRow>(
        this.dataSource,
        `SELECT ${ROW} FROM messages m ${WITH_PART_STATUS} WHERE m.id IN (
           SELECT m.id FROM messages m ${statusJoin} WHERE ${condition} ORDER BY m.created_at DESC, m.seq DESC ${pageParams.clause}
         ) ORDER BY m.created_at DESC, m.seq DESC`,
        pageParams.params,
      ),
    ]);
    return { total: count.rows[0].total, rows: rows.rows };
  }

  async statusOf(accountId: number, messageId: string, tx: Tx): Promise<MessageStatus | null> {
    const { rows } = await sql<{ status: MessageStatus }>(tx, `SELECT ${MESSAGE_STATUS} AS status FROM messages m ${WITH_PART_STATUS} WHERE m.account_id = $1 AND m.id = $2`, [
      accountId,
      messageId,
    ]);
    return rows[0]?.status ?? null;
  }

  async sendExists(accountId: number, sendId: number, tx: Tx): Promise<boolean> {
    const { rows } = await sql(tx, `SELECT 1 FROM sends WHERE account_id = $1 AND id = $2`, [accountId, sendId]);
    return rows.length > 0;
  }

  /** Cancels a recipient's messages not yet taken by a dispatcher (an opt-out). */
  async cancelUnsentToRecipient(accountId: number, number: string, tx: Tx): Promise<CancelledMessageRecord[]> {
    const matching = `m.to_number = $2 AND m.status IN ('pending', 'scheduled')`;
    return this.cancelUnclaimed(
      `SELECT m.id, m.send_id FROM sends s JOIN messages m ON m.send_id = s.id AND ${UNCLAIMED} WHERE s.account_id = $1 AND ${UNDISPATCHED} AND ${matching}
       UNION
       SELECT m.id, m.send_id FROM dispatch_batches b JOIN sends s ON s.id = b.send_id AND s.account_id = $1 JOIN messages m ON ${IN_BATCH}
        WHERE b.released_at IS NOT NULL AND ${matching} AND ${NO_PART}`,
      [accountId, number],
      tx,
    );
  }

  /**
   * Cancels the matching messages that are still scheduled and that no dispatcher has taken. Returns what
   * was cancelled, with the credits to refund.
   */
  async cancelScheduled(accountId: number, match: { messageId: string } | { sendId: number } | { customRef: string }, tx: Tx): Promise<CancelledMessageRecord[]> {
    const [column, value] = 'messageId' in match ? ['id', match.messageId] : 'sendId' in match ? ['send_id', match.sendId] : ['custom_ref', match.customRef];
    const matching = `m.account_id = $1 AND m.${column} = $2 AND m.status = 'scheduled'`;
    return this.cancelUnclaimed(
      `SELECT m.id, m.send_id FROM messages m JOIN sends s ON s.id = m.send_id AND ${UNDISPATCHED} WHERE ${matching} AND ${UNCLAIMED}
       UNION
       SELECT m.id, m.send_id FROM messages m JOIN dispatch_batches b ON b.send_id = m.send_id AND b.released_at IS NOT NULL AND ${IN_BATCH}
        WHERE ${matching} AND ${NO_PART}`,
      [accountId, value],
      tx,
    );
  }

  /**
   * Cancels the candidates `find` lists (id and send_id of messages no dispatcher holds: after their send's
   * watermark, or in a batch taken back from a dispatcher that died), so that a dispatch racing for one of
   * them cannot also win: the candidates are found without locks, then their sends' rows are held (a claim
   * of those sends, which moves the watermark or takes a released batch, waits until this transaction
   * ends; one that went first shows in what follows), then the candidates' rows in id order (two cancels
   * of the same messages queue instead of deadlocking), then one conditional UPDATE, a statement of its
   * own, takes those still not held by a dispatcher. A message becomes a candidate only by being stored: a
   * send committed after the candidates were found (one that checked the number's opt-out before it was
   * recorded) is not seen here, as before this cancel had candidates.
   */
  private async cancelUnclaimed(find: string, params: unknown[], tx: Tx): Promise<CancelledMessageRecord[]> {
    const { rows: candidates } = await sql<{ id: string; send_id: string }>(tx, find, params);
    if (candidates.length === 0) return [];
    const sends = [...new Set(candidates.map((c) => String(c.send_id)))];
    const ids = candidates.map((c) => c.id);
    await sql(tx, `SELECT 1 FROM sends WHERE id = ANY($1::bigint[]) ORDER BY id FOR SHARE`, [sends]);
    await sql(tx, `SELECT 1 FROM messages WHERE id = ANY($1::uuid[]) ORDER BY id FOR NO KEY UPDATE`, [ids]);
    const { rows } = await sql<CancelledMessageRecord>(
      tx,
      `UPDATE messages m SET status = 'cancelled', updated_at = now()
         FROM sends s
        WHERE m.id = ANY($1::uuid[]) AND s.id = m.send_id AND m.status IN ('pending', 'scheduled')
          AND (${UNCLAIMED} OR (${IN_RELEASED_BATCH} AND ${NO_PART}))
        RETURNING ${CANCELLED}`,
      [ids],
    );
    return rows;
  }

  /** Replaces a secret in a stored message's text (a used confirmation link), so the table keeps no live secret. */
  async redactBody(accountId: number, messageId: string, secret: string, replacement: string, tx: Tx): Promise<void> {
    await sql(tx, `UPDATE messages SET body = replace(body, $3, $4), updated_at = now() WHERE account_id = $1 AND id = $2`, [accountId, messageId, secret, replacement]);
  }

  /** The status of each of these messages of the account (one query). */
  async statusesOf(accountId: number, messageIds: string[]): Promise<Map<string, MessageStatus>> {
    if (messageIds.length === 0) return new Map();
    const { rows } = await sql<{ id: string; status: MessageStatus }>(
      this.dataSource,
      `SELECT m.id, ${MESSAGE_STATUS} AS status FROM messages m ${WITH_PART_STATUS} WHERE m.account_id = $1 AND m.id = ANY($2::uuid[])`,
      [accountId, messageIds],
    );
    return new Map(rows.map((r) => [r.id, r.status]));
  }
}
