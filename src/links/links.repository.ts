import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { Page } from '../common/http/pagination';
import { paged, sql } from '../database/sql';
import { Tx } from '../database/unit-of-work';
import type { LinkDraft } from './link-rewriter';
import { isUniqueViolation } from '../database/pg-errors';

export interface OptoutLinkRow {
  account_id: number;
  recipient: string;
  message_id: string;
  created_at: Date;
}

export interface LinkClickRow {
  message_id: string;
  recipient: string;
  url: string;
  code: string;
  clicks: number;
  first_clicked_at: Date | null;
  last_clicked_at: Date | null;
}

/** A send's links were all stored, or none were and these codes are another send's. */
export type LinkInsertOutcome = { stored: true } | { stored: false; taken: Set<string> };

export type LinkScope = { messageId: string } | { sendId: number };

@Injectable()
export class LinksRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * A whole send's links in one plain INSERT under a savepoint: all of them, or none and the codes another
   * send already holds (usually there are none, and then nothing but the insert runs). A plain insert is
   * about a third cheaper than ON CONFLICT's speculative insertion, and no code has to come back. An
   * opt-out link is the one without a URL (the table's check says so too). Each column travels as one joined
   * string instead of an array the driver escapes element by element: codes are base62 and message ids UUIDs
   * (joined by commas), and a URL never holds a control character (findUrls ends it at one), so URLs are
   * joined by newlines, a missing one (an opt-out link) as the empty string, read back as NULL.
   */
  async insertAll(accountId: number, sendId: number, drafts: LinkDraft[], tx: Tx): Promise<LinkInsertOutcome> {
    const codes = drafts.map((d) => d.code).join(',');
    await sql(tx, 'SAVEPOINT short_links_insert');
    try {
      await sql(
        tx,
        `INSERT INTO short_links (code, account_id, send_id, message_id, kind, url)
         SELECT d.code, $1, $2, d.message_id, CASE WHEN d.url IS NULL THEN 'optout' ELSE 'url' END, d.url
           FROM unnest(string_to_array($3, ','), string_to_array($4, ',')::uuid[], string_to_array($5, E'\n', '')) AS d(code, message_id, url)`,
        [accountId, sendId, codes, drafts.map((d) => d.messageId).join(','), drafts.map((d) => d.url ?? '').join('\n')],
      );
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      await sql(tx, 'ROLLBACK TO SAVEPOINT short_links_insert');
      const { rows } = await sql<{ code: string }>(tx, `SELECT code FROM short_links WHERE code = ANY(string_to_array($1, ','))`, [codes]);
      // Empty only when the holder of a code rolled back meanwhile: the caller simply inserts again.
      return { stored: false, taken: new Set(rows.map((r) => r.code)) };
    }
    await sql(tx, 'RELEASE SAVEPOINT short_links_insert');
    return { stored: true };
  }

  /**
   * The URL behind a live short link, appending its hit in the same statement (no row is updated per
   * click, so a campaign clicked at once contends on nothing). Null when unknown or past retention.
   */
  async followUrl(code: string, notBefore: Date, preview: boolean): Promise<string | null> {
    const { rows } = await sql<{ url: string }>(
      this.dataSource,
      `WITH link AS (SELECT code, url FROM short_links WHERE code = $1 AND kind = 'url' AND created_at >= $2),
            hit AS (INSERT INTO link_click_events (code, preview) SELECT code, $3 FROM link)
       SELECT url FROM link`,
      [code, notBefore, preview],
      // Every click runs it: parsed and planned once per connection.
      { prepared: true },
    );
    return rows[0]?.url ?? null;
  }

  async findOptout(code: string): Promise<OptoutLinkRow | null> {
    const { rows } = await sql<OptoutLinkRow>(
      this.dataSource,
      `SELECT l.account_id, m.to_number AS recipient, l.message_id, l.created_at
         FROM short_links l JOIN messages m ON m.id = l.message_id WHERE l.code = $1 AND l.kind = 'optout'`,
      [code],
    );
    return rows[0] ?? null;
  }

  /**
   * Folds up to `limit` appended hits into the links' counters in one statement. Folds take turns (a
   * transaction-scoped advisory lock): two at once would update the same popular links in different
   * orders and could deadlock, and a read folds first, so it would answer 500.
   */
  async fold(limit: number): Promise<number> {
    return this.dataSource.transaction(async (tx) => {
      await sql(tx, `SELECT pg_advisory_xact_lock(hashtextextended('link-click-fold', 0))`);
      return this.foldLocked(limit, tx);
    });
  }

  private async foldLocked(limit: number, tx: EntityManager): Promise<number> {
    const { rows } = await sql<{ folded: number }>(
      tx,
      `WITH moved AS (
         DELETE FROM link_click_events WHERE id IN (SELECT id FROM link_click_events ORDER BY id LIMIT $1)
         RETURNING code, preview, clicked_at),
       agg AS (
         SELECT code,
                count(*) FILTER (WHERE NOT preview)::int AS clicks,
                count(*) FILTER (WHERE preview)::int AS previews,
                min(clicked_at) FILTER (WHERE NOT preview) AS first_at,
                max(clicked_at) FILTER (WHERE NOT preview) AS last_at
         FROM moved GROUP BY code),
       upd AS (
         UPDATE short_links l SET clicks = l.clicks + agg.clicks, preview_hits = l.preview_hits + agg.previews,
                first_clicked_at = LEAST(l.first_clicked_at, agg.first_at), last_clicked_at = GREATEST(l.last_clicked_at, agg.last_at)
         FROM agg WHERE l.code = agg.code),
       -- The same clicks by when they happened: per send and quarter hour (link_click_buckets).
       timed AS (
         INSERT INTO link_click_buckets (account_id, bucket, send_id, clicks)
         SELECT l.account_id, date_bin('15 minutes', moved.clicked_at, 'epoch'), l.send_id, count(*)::int
           FROM moved JOIN short_links l ON l.code = moved.code
          WHERE NOT moved.preview
          GROUP BY 1, 2, 3
         ON CONFLICT (account_id, bucket, send_id) DO UPDATE SET clicks = link_click_buckets.clicks + EXCLUDED.clicks)
       SELECT count(*)::int AS folded FROM moved`,
      [limit],
    );
    return rows[0]?.folded ?? 0;
  }

  /** The account's shortened links of one message or send, in a stable order (both found through the BRIN index on send_id). */
  async pageClicks(accountId: number, scope: LinkScope, page: Page): Promise<{ total: number; rows: LinkClickRow[] }> {
    const where =
      'messageId' in scope
        ? `l.account_id = $1 AND l.send_id = (SELECT send_id FROM messages WHERE id = $2::uuid AND account_id = $1) AND l.message_id = $2::uuid AND l.kind = 'url'`
        : `l.account_id = $1 AND l.send_id = $2 AND l.kind = 'url'`;
    const params = [accountId, 'messageId' in scope ? scope.messageId : scope.sendId];
    const pageParams = paged(params, page);
    const [count, rows] = await Promise.all([
      sql<{ total: number }>(this.dataSource, `SELECT count(*)::int AS total FROM short_links l WHERE ${where}`, params),
      sql<LinkClickRow>(
        this.dataSource,
        `SELECT l.message_id, m.to_number AS recipient, l.url, l.code, l.clicks, l.first_clicked_at, l.last_clicked_at
         FROM short_links l JOIN messages m ON m.id = l.message_id WHERE ${where}
         ORDER BY l.message_id, l.created_at, l.code ${pageParams.clause}`,
        pageParams.params,
      ),
    ]);
    return { total: count.rows[0].total, rows: rows.rows };
  }

  /** The account's clicks in [from, toExclusive), by the day they were clicked on `timeZone`'s calendar (from the quarter-hour buckets). */
  async clicksByDay(accountId: number, from: Date, toExclusive: Date, timeZone: string): Promise<Array<{ day: string; clicks: number }>> {
    const { rows } = await sql<{ day: string; clicks: number }>(
      this.dataSource,
      `SELECT to_char(bucket AT TIME ZONE $4, 'YYYY-MM-DD') AS day, sum(clicks)::int AS clicks
         FROM link_click_buckets
        WHERE account_id = $1 AND bucket >= $2 AND bucket < $3
        GROUP BY 1
        ORDER BY 1`,
      [accountId, from.toISOString(), toExclusive.toISOString(), timeZone],
    );
    return rows;
  }
}
