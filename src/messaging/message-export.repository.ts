import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { MESSAGE_STATUS, WITH_PART_STATUS } from '../delivery/state/message-status';
import { FAILURE_REASON } from './failure-reason';
import type { MessageStatus } from './message.entity';

/** Rows a cursor fetch reads: enough to keep PostgreSQL and the writer busy, few enough to hold in memory. */
export const EXPORT_FETCH_ROWS = 5000;

/** Which of the account's messages an export holds: a period (half-open) or one send. */
export type ExportFilter = { from?: Date; toExclusive?: Date } | { sendId: number };

export interface ExportRow {
  id: string;
  send_id: string;
  created_at: Date;
  scheduled_for: Date | null;
  to_number: string;
  sender: string;
  body: string;
  status: MessageStatus;
  encoding: string;
  parts: number;
  /** Hundredths of a credit. */
  cost: string;
  custom_ref: string | null;
  /** For a failed message: the carrier's error where its receipt gave one, else the refusal's text. */
  failure: string | null;
}

/**
 * An export's messages, oldest first, read through a server-side cursor in one read-only transaction
 * (one consistent snapshot, one plan; memory bounded by a fetch however many rows match). The caller
 * iterates; stopping early (a client gone) closes the cursor and frees the connection.
 */
@Injectable()
export class MessageExportRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async *rows(accountId: number, filter: ExportFilter): AsyncGenerator<ExportRow[]> {
    const params: unknown[] = [accountId];
    let where = 'm.account_id = $1';
    if ('sendId' in filter) {
      params.push(filter.sendId);
      where += ` AND m.send_id = $${params.length}`;
    } else {
      if (filter.from) {
        params.push(filter.from.toISOString());
        where += ` AND m.created_at >= $${params.length}`;
      }
      if (filter.toExclusive) {
        params.push(filter.toExclusive.toISOString());
        where += ` AND m.created_at < $${params.length}`;
      }
    }
    const runner = this.dataSource.createQueryRunner('slave');
    await runner.connect();
    let open = false;
    try {
      await runner.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      open = true;
      await runner.query(
        `DECLARE message_export NO SCROLL CURSOR FOR
         SELECT m.id, m.send_id::text, m.created_at, m.scheduled_for, m.to_number, m.sender, m.body, ${MESSAGE_STATUS} AS status,
                m.encoding, m.parts, m.cost::text, m.custom_ref,
                CASE WHEN part_status.status = 'failed' THEN (
                  SELECT ${FAILURE_REASON}
                    FROM message_parts p WHERE p.message_id = m.id AND p.status = 'failed' ORDER BY p.part_number LIMIT 1)
                END AS failure
           FROM messages m ${WITH_PART_STATUS}
          WHERE ${where}
          ORDER BY m.created_at, m.seq`,
        params,
      );
      for (;;) {
        const batch = (await runner.query(`FETCH ${EXPORT_FETCH_ROWS} FROM message_export`)) as ExportRow[];
        if (batch.length === 0) break;
        yield batch;
        if (batch.length < EXPORT_FETCH_ROWS) break;
      }
      await runner.query('COMMIT');
      open = false;
    } finally {
      // Stopped early (the client went away) or failed: end the transaction, and its cursor, before the connection goes back.
      if (open) await runner.query('ROLLBACK').catch(() => undefined);
      await runner.release();
    }
  }
}
