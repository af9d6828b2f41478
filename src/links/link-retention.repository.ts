import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { sql } from '../database/sql';

/**
 * Deletes short links past their retention by walking the table's pages in physical order (a TID range
 * scan reads only the pages named). Links are keyed by a random code and have no index on their age, and
 * freed pages are refilled by new links, so no index range or "oldest first" order finds the old ones
 * cheaply; a sweep of page ranges reads each page once per cycle, adds nothing to the insert path, and each
 * range is its own short statement.
 */
@Injectable()
export class LinkRetentionRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The table's size in pages (what a full sweep walks). */
  async pageCount(): Promise<number> {
    const { rows } = await sql<{ pages: number }>(this.dataSource, `SELECT (pg_relation_size('short_links') / current_setting('block_size')::int)::int AS pages`);
    return rows[0].pages;
  }

  /** Deletes the links made before `cutoff` in pages [fromPage, toPage). */
  async purgePages(cutoff: Date, fromPage: number, toPage: number): Promise<number> {
    const { rowCount } = await sql(
      this.dataSource,
      `DELETE FROM short_links WHERE ctid >= format('(%s,0)', $1::int)::tid AND ctid < format('(%s,0)', $2::int)::tid AND created_at < $3`,
      [fromPage, toPage, cutoff.toISOString()],
    );
    return rowCount;
  }
}
