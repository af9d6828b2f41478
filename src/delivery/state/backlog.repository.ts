import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { sql } from '../../database/sql';
import { FIRST_UNCLAIMED, UNDISPATCHED } from './dispatch-order';

/** Age in ms of the oldest due message no dispatcher holds (released batches count from their release). */
export const OLDEST_UNCLAIMED_DUE = `SELECT (extract(epoch FROM now() - min(due)) * 1000)::bigint AS age FROM (
    SELECT n.dispatch_at AS due FROM sends s ${FIRST_UNCLAIMED} WHERE ${UNDISPATCHED} AND n.dispatch_at <= now()
    UNION ALL
    SELECT released_at FROM dispatch_batches WHERE released_at IS NOT NULL
  ) due`;

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
    const { rows } = await sql<{ age: number | null }>(this.dataSource, OLDEST_UNCLAIMED_DUE);
    return Math.max(0, Number(rows[0]?.age ?? 0));
  }
}
