import { Injectable } from '@nestjs/common';
import { Tx } from '../database/unit-of-work';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { Page } from '../common/http/pagination';
import { keyLookupsOnly, paged, sql } from '../database/sql';
import { copyChunks, copyField, ROWS_PER_CHUNK } from '../database/copy-rows';
import type { MessageStatus } from './message.entity';
import { MESSAGE_STATUS, WITH_PART_STATUS } from '../delivery/state/message-status';
import type { HistoryPosition } from './history-cursor';

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
  /** Lookups only: the SMSC's command_status of the first part it refused (carrier_error). */
  error_code?: number | null;
}

export interface HistoryFilter {
  status?: MessageStatus;
  from?: Date;
  /** Exclusive upper bound. */
  toExclusive?: Date;
}

/** A history row with its place in the history's order (for the keyset continuation). */
export type HistoryRow = MessageRow & HistoryPosition;

const ROW = `m.id, m.send_id, m.to_number, m.sender, m.body, m.custom_ref, ${MESSAGE_STATUS} AS status, m.cost, m.scheduled_for, m.created_at`;
/** A lookup's row also names the SMSC's refusal of its first refused part (by key; at most 100 rows). */
const LOOKUP_ROW = `${ROW}, (SELECT p.error_code FROM message_parts p WHERE p.message_id = m.id AND p.status = 'failed' AND p.error_code IS NOT NULL
                              ORDER BY p.part_number LIMIT 1) AS error_code`;

/** The columns a send writes, in the order of insertMany's COPY lines. */
export const MESSAGE_COPY_COLUMNS = [
  'id',
  'account_id',
  'send_id',
  'to_number',
  'sender',
  'sender_type',
  'body',
  'custom_ref',
  'status',
  'encoding',
  'parts',
  'cost',
  'is_test',
  'scheduled_for',
  'dispatch_at',
] as const;

@Injectable()
export class MessagesRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * All of a send's messages, in the given order, by one COPY in chunks (insertSlices), then the send's last message in
   * dispatch order (where its dispatch watermark stops). `whileStoring`: the caller's work to run while
   * PostgreSQL stores the last rows (not run when there are none).
   */
  async insertMany(accountId: number, sendId: number, isTest: boolean, rows: NewMessage[], tx: Tx, whileStoring?: () => Promise<void>): Promise<void> {
    let at = 0;
    await this.insertSlices(accountId, sendId, isTest, () => (at < rows.length ? rows.slice(at, (at += ROWS_PER_CHUNK)) : null), tx, whileStoring);
  }

  /**
   * insertMany for messages made a slice at a time: `nextSlice()` is asked for the next slice while
   * PostgreSQL stores the ones before (copyChunks), until it answers null. Returns every row stored, in order.
   */
  async insertSlices(accountId: number, sendId: number, isTest: boolean, nextSlice: () => NewMessage[] | null, tx: Tx, whileStoring?: () => Promise<void>): Promise<NewMessage[]> {
    const stored: NewMessage[] = [];
    const test = copyField(isTest);
    const fields = (r: NewMessage) => [
      r.id,
      String(accountId),
      String(sendId),
      copyField(r.to),
      copyField(r.sender),
      r.senderType,
      copyField(r.body),
      copyField(r.customRef),
      r.status,
      r.encoding,
      String(r.parts),
      String(r.cost),
      test,
      r.scheduledFor ? r.scheduledFor.toISOString() : '\\N',
      r.dispatchAt.toISOString(),
    ];
    await copyChunks(
      tx,
      'messages',
      MESSAGE_COPY_COLUMNS,
      () => {
        const slice = nextSlice();
        if (slice === null) return null;
        for (const r of slice) stored.push(r);
        return slice.map(fields);
      },
      {
        whileStoring,
        // The rest of the transaction plans by key too. (The statement check of the messages' sends sets
        // this for itself: on a small, analysed `sends` PostgreSQL's own plan for it is a sequential scan.)
        beforeCopy: () => keyLookupsOnly(tx),
      },
    );
    if (stored.length === 0) return stored;
    // The send's last message in dispatch order: the latest dispatch time, and of those the last stored
    // (COPY numbers `seq` in the order it reads the rows). Fetched by its id: a query for the send's latest
    // row planned on statistics from before these rows read all of them (about 13 ms for 10000).
    let last = stored[0];
    for (const r of stored) if (r.dispatchAt.getTime() >= last.dispatchAt.getTime()) last = r;
    await sql(tx, `UPDATE sends SET (last_at, last_seq) = (SELECT dispatch_at, seq FROM messages WHERE id = $2) WHERE id = $1`, [sendId, last.id]);
    return stored;
  }

  async findById(accountId: number, messageId: string): Promise<MessageRow | null> {
    const { rows } = await sql<MessageRow>(this.dataSource, `SELECT ${LOOKUP_ROW} FROM messages m ${WITH_PART_STATUS} WHERE m.account_id = $1 AND m.id = $2`, [
      accountId,
      messageId,
    ]);
    return rows[0] ?? null;
  }

  async findRecentByCustomRef(accountId: number, customRef: string, limit: number): Promise<MessageRow[]> {
    const { rows } = await sql<MessageRow>(
      this.dataSource,
      `SELECT ${LOOKUP_ROW} FROM messages m ${WITH_PART_STATUS} WHERE m.account_id = $1 AND m.custom_ref = $2 ORDER BY m.created_at DESC, m.seq DESC LIMIT $3`,
      [accountId, customRef, limit],
    );
    return rows;
  }

  /**
   * A page of the history, newest first, and how many messages the filter matches. `after` (a keyset
   * continuation) starts the page past that position; `total` does not depend on it.
   */
  async history(accountId: number, filter: HistoryFilter, page: Page, after?: HistoryPosition): Promise<{ total: number; rows: HistoryRow[] }> {
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
    const pageWhere = [...where];
    const pageParamsBase = [...params];
    if (after) {
      // A row comparison the (account_id, created_at DESC, seq DESC) index answers as its start point.
      pageParamsBase.push(after.createdUs, after.seq);
      pageWhere.push(`(m.created_at, m.seq) < ('epoch'::timestamptz + $${pageParamsBase.length - 1}::bigint * interval '1 microsecond', $${pageParamsBase.length}::bigint)`);
    }
    const pageParams = paged(pageParamsBase, page);
    // Unfiltered, the total is the account's kept per-month counts (message_counts): a few rows, not millions.
    const unfiltered = where.length === 1; // the account's own condition and no filter
    const countSql = unfiltered
      ? `SELECT coalesce(sum(messages), 0)::bigint AS total FROM message_counts WHERE account_id = $1`
      : `SELECT count(*) AS total FROM messages m ${statusJoin} WHERE ${condition}`;
    const [count, rows] = await Promise.all([
      sql<{ total: number }>(this.dataSource, countSql, params),
      sql<HistoryRow>(
        this.dataSource,
        `SELECT ${ROW}, (extract(epoch FROM m.created_at) * 1000000)::bigint::text AS "createdUs", m.seq::text AS seq
           FROM messages m ${WITH_PART_STATUS} WHERE m.id IN (
           SELECT m.id FROM messages m ${statusJoin} WHERE ${pageWhere.join(' AND ')} ORDER BY m.created_at DESC, m.seq DESC ${pageParams.clause}
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
