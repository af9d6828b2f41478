import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { sql } from '../database/sql';

/** One batch of a retention purge: the last id looked at (the next batch starts after it) and whether to go on. */
export interface PurgeStep {
  lastId: number;
  deleted: number;
  more: boolean;
}

/**
 * Deletes webhook events and attempts past their retention from the oldest id up. Both tables are
 * partitioned by day (src/partitions drops whole days past WEBHOOK_RETENTION_DAYS); this purge empties
 * what partition drops never reach: the rows from before event ids were day-prefixed, in the catch-all
 * partitions `_p_old`. Ids are handed out in
 * insertion order, so the oldest rows sit at the start of the primary key: each batch reads the next
 * `limit` ids after the cursor and deletes those made before the cutoff. The walk stops at the first
 * batch holding a row made after the cutoff, so a run reads what it deletes and one batch more, never the
 * whole table (no index on created_at is needed). An event still being retried is skipped, not deleted.
 */
@Injectable()
export class WebhookRetentionRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Finished events, and their attempts with them (in the same statement: no foreign key cascades there). */
  purgeEvents(cutoff: Date, afterId: number, limit: number): Promise<PurgeStep> {
    return this.step('webhook_events', `state <> 'pending'`, cutoff, afterId, limit, `, attempts_gone AS (DELETE FROM webhook_attempts a USING gone WHERE a.event_id = gone.id)`);
  }

  /** Attempts whose event is still kept (an event retried for days keeps its early attempts until they age out). */
  purgeAttempts(cutoff: Date, afterId: number, limit: number): Promise<PurgeStep> {
    return this.step('webhook_attempts', 'true', cutoff, afterId, limit);
  }

  private async step(table: 'webhook_events' | 'webhook_attempts', deletable: string, cutoff: Date, afterId: number, limit: number, alsoDelete = ''): Promise<PurgeStep> {
    const { rows } = await sql<{ last_id: string | null; deleted: number; all_old: boolean | null }>(
      this.dataSource,
      `WITH head AS (
         SELECT id, created_at < $2 AS old, ${deletable} AS deletable FROM ${table} WHERE id > $1 ORDER BY id LIMIT $3
       ), gone AS (
         DELETE FROM ${table} t USING head WHERE t.id = head.id AND head.old AND head.deletable RETURNING t.id
       )${alsoDelete}
       SELECT (SELECT max(id) FROM head)::text AS last_id, (SELECT count(*) FROM gone)::int AS deleted, (SELECT bool_and(old) FROM head) AS all_old`,
      [afterId, cutoff.toISOString(), limit],
    );
    const row = rows[0];
    return { lastId: row.last_id === null ? afterId : Number(row.last_id), deleted: row.deleted, more: row.all_old === true };
  }
}
