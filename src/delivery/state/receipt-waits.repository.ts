import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { keyLookupsOnly, sql } from '../../database/sql';

/**
 * A part submitted in the same transaction as its neighbours carries that transaction's start time, and
 * becomes visible only at its commit: the walk looks this far behind its watermark again, so a part
 * committed a moment after the watermark passed its submission time is still closed.
 */
const OVERLAP = `interval '5 seconds'`;

/**
 * One step of closing receipt waits ($1: the wait in ms, $2: most parts to move the watermark over), under
 * the watermark row's lock (a worker already stepping is skipped, not waited for): live parts submitted
 * after the watermark and at least $1 ago that still wait for a receipt become `unconfirmed`, and the
 * watermark moves to the last submission time looked at. Set-based: one range of the submission-time
 * index, its parts by key. Answers the parts closed per carrier, and whether more are due than the step took.
 */
export const CLOSE_RECEIPT_WAITS = `WITH mark AS (
    SELECT closed_through FROM receipt_wait_watermark WHERE id = 1 FOR UPDATE SKIP LOCKED
  ), due AS MATERIALIZED (
    SELECT mark.closed_through AS since, now() - $1 * interval '1 millisecond' AS until,
           (SELECT p.submitted_at FROM message_parts p
             WHERE p.carrier_id >= 0 AND p.submitted_at > mark.closed_through
             ORDER BY p.submitted_at OFFSET $2 - 1 LIMIT 1) AS nth
      FROM mark
  ), step AS (
    SELECT since, CASE WHEN nth IS NOT NULL AND nth < until THEN nth ELSE until END AS through, nth IS NOT NULL AND nth < until AS more FROM due
  ), closed AS (
    UPDATE message_parts p SET status = 'unconfirmed' FROM step
     WHERE p.carrier_id >= 0 AND p.submitted_at > step.since - ${OVERLAP} AND p.submitted_at <= step.through AND p.status = 'submitted'
    RETURNING p.carrier_id
  ), moved AS (
    UPDATE receipt_wait_watermark w SET closed_through = step.through FROM step WHERE w.id = 1 AND step.through > step.since
  )
  SELECT (SELECT coalesce(json_object_agg(carrier_id, parts), '{}') FROM (SELECT carrier_id, count(*)::int AS parts FROM closed GROUP BY carrier_id) c) AS "closedByCarrier",
         coalesce((SELECT more FROM step), false) AS more`;

export interface ReceiptWaitStep {
  /** Parts whose wait closed, by carrier id. */
  closedByCarrier: Record<string, number>;
  /** More parts are due than this step took: step again. */
  more: boolean;
}

/** Closes the wait for receipts of live parts whose carrier never reported one (receipt-waits.service.ts). */
@Injectable()
export class ReceiptWaitsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async closeStep(waitMs: number, perStep: number): Promise<ReceiptWaitStep> {
    return this.dataSource.transaction(async (tx) => {
      await keyLookupsOnly(tx);
      const { rows } = await sql<ReceiptWaitStep>(tx, CLOSE_RECEIPT_WAITS, [waitMs, perStep]);
      return rows[0];
    });
  }
}
