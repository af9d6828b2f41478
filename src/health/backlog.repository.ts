import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { sql } from '../database/sql';

/** Reads across all accounts for operators: how far dispatch is behind. */
@Injectable()
export class BacklogRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Age of the oldest due message no dispatcher holds: a queue that stops draining shows here. The first
   * message after each undispatched send's watermark (sends_undispatched_idx, then one probe of
   * messages_send_order_idx per send, however many messages wait), and released batches.
   */
  async oldestUnclaimedDueAgeMs(): Promise<number> {
    const { rows } = await sql<{ age: number | null }>(
      this.dataSource,
      `SELECT (extract(epoch FROM now() - min(due)) * 1000)::bigint AS age FROM (
         SELECT n.dispatch_at AS due FROM sends s
          CROSS JOIN LATERAL (
            SELECT m.dispatch_at FROM messages m WHERE m.send_id = s.id AND (m.dispatch_at, m.seq) > (s.claimed_through_at, s.claimed_through_seq)
             ORDER BY m.dispatch_at, m.seq LIMIT 1) n
          WHERE s.last_seq IS NOT NULL AND (s.claimed_through_at, s.claimed_through_seq) < (s.last_at, s.last_seq) AND n.dispatch_at <= now()
         UNION ALL
         SELECT released_at FROM dispatch_batches WHERE released_at IS NOT NULL
       ) due`,
    );
    return Math.max(0, Number(rows[0]?.age ?? 0));
  }
}
