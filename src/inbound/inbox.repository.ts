import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { sql } from '../database/sql';
import type { InboundType } from './inbound.repository';

export interface InboxThreadRow {
  mobile: string;
  last_at: Date;
  last_body: string;
  last_type: InboundType;
  received: number;
  unread: number;
}

/** One line of a thread: a reply or opt-out received, or a message the account sent the mobile. */
export interface ThreadEntryRow {
  direction: 'in' | 'out';
  at: Date;
  body: string;
  type: InboundType | 'sent';
  account_number: string;
}

function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** The inbox's reads over the account's inbound messages (threads by the replying mobile) and their unread state. */
@Injectable()
export class InboxRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Threads newest first: one per mobile that has written to the account, with its latest message and
   * how many of its replies came after the account last read it. A search keeps the threads whose number
   * contains the digits or any of whose replies contains the text.
   */
  async threads(accountId: number, search: { text: string; digits: string | null } | null, limit: number, offset: number): Promise<InboxThreadRow[]> {
    const params: unknown[] = [accountId, limit, offset];
    let filter = '';
    if (search) {
      params.push(`%${escapeLike(search.text.toLowerCase())}%`);
      const conditions = [`lower(s.body) LIKE $${params.length}`];
      if (search.digits) {
        params.push(`%${escapeLike(search.digits)}%`);
        // Both forms of the number: 61412… and 0412….
        conditions.push(`(s.from_number || ' 0' || substr(s.from_number, 3)) LIKE $${params.length}`);
      }
      filter = `AND i.from_number IN (SELECT s.from_number FROM inbound_messages s WHERE s.account_id = $1 AND (${conditions.join(' OR ')}))`;
    }
    const { rows } = await sql<InboxThreadRow>(
      this.dataSource,
      `WITH threads AS (
         SELECT i.from_number AS mobile, max(i.seq) AS last_seq, count(*)::int AS received,
                count(*) FILTER (WHERE i.seq > coalesce(r.read_seq, 0))::int AS unread
           FROM inbound_messages i LEFT JOIN inbox_reads r ON r.account_id = i.account_id AND r.mobile = i.from_number
          WHERE i.account_id = $1 ${filter}
          GROUP BY i.from_number
       )
       SELECT t.mobile, l.received_at AS last_at, l.body AS last_body, l.type AS last_type, t.received, t.unread
         FROM threads t JOIN inbound_messages l ON l.account_id = $1 AND l.from_number = t.mobile AND l.seq = t.last_seq
        ORDER BY t.last_seq DESC LIMIT $2 OFFSET $3`,
      params,
    );
    return rows;
  }

  /** Threads with unread replies (the menu's count). */
  async unreadThreads(accountId: number): Promise<number> {
    const { rows } = await sql<{ n: number }>(
      this.dataSource,
      `SELECT count(DISTINCT i.from_number)::int AS n FROM inbound_messages i LEFT JOIN inbox_reads r ON r.account_id = i.account_id AND r.mobile = i.from_number
        WHERE i.account_id = $1 AND i.seq > coalesce(r.read_seq, 0)`,
      [accountId],
    );
    return rows[0].n;
  }

  /**
   * The newest entries of a thread, newest first: what the mobile sent the account, and what the account
   * sent the mobile from any of `senders` (the numbers it wrote to and the account's active senders: the
   * conversation index is by sender and recipient).
   */
  async thread(accountId: number, mobile: string, senders: string[], limit: number): Promise<ThreadEntryRow[]> {
    const { rows } = await sql<ThreadEntryRow>(
      this.dataSource,
      `(SELECT 'in' AS direction, received_at AS at, body, type, to_number AS account_number, seq AS tiebreak FROM inbound_messages
         WHERE account_id = $1 AND from_number = $2 ORDER BY seq DESC LIMIT $4)
       UNION ALL
       (SELECT 'out', created_at, body, 'sent', sender, seq FROM messages
         WHERE sender = ANY($3::text[]) AND to_number = $2 AND account_id = $1 ORDER BY created_at DESC LIMIT $4)
       ORDER BY at DESC, tiebreak DESC LIMIT $4`,
      [accountId, mobile, senders, limit],
    );
    return rows;
  }

  /** The account's number the mobile wrote to last (a reply goes from it), or null when it never wrote. */
  async lastReceivingNumber(accountId: number, mobile: string): Promise<{ number: string; seq: number } | null> {
    const { rows } = await sql<{ number: string; seq: number }>(
      this.dataSource,
      `SELECT to_number AS number, seq FROM inbound_messages WHERE account_id = $1 AND from_number = $2 ORDER BY seq DESC LIMIT 1`,
      [accountId, mobile],
    );
    return rows[0] ?? null;
  }

  /** The numbers of the account the mobile has written to. */
  async receivingNumbers(accountId: number, mobile: string): Promise<string[]> {
    const { rows } = await sql<{ to_number: string }>(this.dataSource, `SELECT DISTINCT to_number FROM inbound_messages WHERE account_id = $1 AND from_number = $2`, [
      accountId,
      mobile,
    ]);
    return rows.map((r) => r.to_number);
  }

  /** Marks the thread read up to `seq` (never backwards, when two people open it at once). */
  async markRead(accountId: number, mobile: string, seq: number): Promise<void> {
    await sql(
      this.dataSource,
      `INSERT INTO inbox_reads (account_id, mobile, read_seq) VALUES ($1, $2, $3)
       ON CONFLICT (account_id, mobile) DO UPDATE SET read_seq = greatest(inbox_reads.read_seq, EXCLUDED.read_seq), read_at = now()`,
      [accountId, mobile, seq],
    );
  }
}
