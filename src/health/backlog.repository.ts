import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { sql } from '../database/sql';

/** Reads across all accounts for operators: how far dispatch is behind. */
@Injectable()
export class BacklogRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Age of the oldest due message not yet claimed: a queue that stops draining shows here. */
  async oldestUnclaimedDueAgeMs(): Promise<number> {
    const { rows } = await sql<{ age: number | null }>(
      this.dataSource,
      // The first entry of messages_due_idx (ordered by dispatch_at): one index probe, however many wait.
      `SELECT (extract(epoch FROM now() - dispatch_at) * 1000)::bigint AS age FROM messages
        WHERE dispatched_at IS NULL AND status IN ('pending', 'scheduled') AND dispatch_at <= now()
        ORDER BY dispatch_at LIMIT 1`,
    );
    return Math.max(0, Number(rows[0]?.age ?? 0));
  }
}
