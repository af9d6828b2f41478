import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { Page } from '../common/http/pagination';
import { paged, sql } from '../database/sql';
import { Tx } from '../database/unit-of-work';
import type { LinkDraft } from './link-rewriter';

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

export type LinkScope = { messageId: string } | { sendId: number };

@Injectable()
export class LinksRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * One statement for a whole send. A code already taken is skipped, not an error, and only the taken
   * codes come back (usually none: the 10000 stored ones are not sent back). An opt-out link is the one
   * without a URL (the table's check says so too).
   */
  async insertMany(accountId: number, sendId: number, drafts: LinkDraft[], tx: Tx): Promise<Set<string>> {
    const { rows } = await sql<{ code: string }>(
      tx,
      `WITH d AS (SELECT * FROM unnest($3::text[], $4::uuid[], $5::text[]) AS d(code, message_id, url)),
            stored AS (
              INSERT INTO short_links (code, account_id, send_id, message_id, kind, url)
              SELECT d.code, $1, $2, d.message_id, CASE WHEN d.url IS NULL THEN 'optout' ELSE 'url' END, d.url FROM d
              ON CONFLICT (code) DO NOTHING
              RETURNING code)
       SELECT d.code FROM d WHERE NOT EXISTS (SELECT 1 FROM stored WHERE stored.code = d.code)`,
      [accountId, sendId, drafts.map((d) => d.code), drafts.map((d) => d.messageId), drafts.map((d) => d.url)],
    );
    return new Set(rows.map((r) => r.code));
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
   * Folds up to `limit` appended hits into the links' counters in one statement. SKIP LOCKED lets
   * several instances fold at once without waiting on each other or counting a hit twice.
   */
  async fold(limit: number): Promise<number> {
    const { rows } = await sql<{ folded: number }>(
      this.dataSource,
      `WITH moved AS (
         DELETE FROM link_click_events WHERE id IN (SELECT id FROM link_click_events ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED)
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
         FROM agg WHERE l.code = agg.code)
       SELECT count(*)::int AS folded FROM moved`,
      [limit],
    );
    return rows[0]?.folded ?? 0;
  }

  /** The account's shortened links of one message or send, in a stable order (both through the (send_id, message_id) index). */
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
}
