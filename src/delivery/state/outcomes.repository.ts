import { Injectable } from '@nestjs/common';
import { keyLookupsOnly, sql } from '../../database/sql';
import type { Tx } from '../../database/unit-of-work';
import { latestPerPart, PART_CHANGE, PartChange, PartOutcome } from './part-changes';

/**
 * Every part's outcome in one statement ($1..$7, $9 and $10 the parts, $8 their batches); answers the parts that changed
 * status with it. `held` first (the insert waits for it): the outcomes' batch rows are held until this
 * transaction ends. The same submission recorded again (a retry whose first commit went through unseen)
 * changes nothing: only another (carrier, SMSC id) (a resubmission) replaces a part's row. The sweeper skips a held batch, and a batch the sweeper holds is waited for, so a batch
 * is never released while its outcomes are being recorded.
 */
export const RECORD_OUTCOMES = `WITH held AS (
     SELECT 1 FROM dispatch_batches WHERE batch_id = ANY($8::uuid[]) FOR SHARE
   ), input AS (
     SELECT * FROM unnest($1::uuid[], $2::smallint[], $3::int[], $4::smallint[], $5::text[], $6::text[], $7::timestamptz[], $9::smallint[], $10::int[])
       AS t(message_id, part_number, account_id, total_parts, smsc_id, error, receipt_due_at, carrier_id, error_code)
   ), early AS (
     UPDATE delivery_receipts r SET applied_at = now() FROM input i
      WHERE r.carrier_id = i.carrier_id AND r.smsc_id = i.smsc_id AND r.applied_at IS NULL AND (SELECT count(*) FROM held) >= 0
     RETURNING r.carrier_id, r.smsc_id, r.state, r.stat, r.err, r.done_at
   ), parts AS (
     INSERT INTO message_parts AS p (message_id, part_number, account_id, total_parts, carrier_id, smsc_id, status, error, error_code, receipt_due_at, receipt_at, receipt_stat, receipt_err)
     SELECT i.message_id, i.part_number, i.account_id, i.total_parts, i.carrier_id, i.smsc_id, CASE WHEN i.smsc_id IS NULL THEN 'failed' ELSE coalesce(e.state, 'submitted') END,
            i.error, i.error_code, CASE WHEN e.smsc_id IS NULL THEN i.receipt_due_at END, e.done_at, e.stat, e.err
       FROM input i LEFT JOIN early e ON e.carrier_id = i.carrier_id AND e.smsc_id = i.smsc_id
      WHERE (SELECT count(*) FROM held) >= 0
     ON CONFLICT (message_id, part_number) DO UPDATE
       SET carrier_id = EXCLUDED.carrier_id, smsc_id = EXCLUDED.smsc_id, status = EXCLUDED.status, error = EXCLUDED.error, error_code = EXCLUDED.error_code, submitted_at = now(), receipt_due_at = EXCLUDED.receipt_due_at,
           receipt_at = EXCLUDED.receipt_at, receipt_stat = EXCLUDED.receipt_stat, receipt_err = EXCLUDED.receipt_err
       WHERE (p.carrier_id, p.smsc_id) IS DISTINCT FROM (EXCLUDED.carrier_id, EXCLUDED.smsc_id)
     RETURNING p.account_id, p.message_id, p.part_number, p.total_parts, p.status, p.error_code, p.submitted_at, coalesce(p.receipt_at, now()) AS receipt_at
   )
   SELECT ${PART_CHANGE}, p.error_code AS "errorCode" FROM parts p WHERE p.status <> 'submitted'`;

/**
 * Submission outcomes: each part's is one row of `message_parts` (its SMSC id, or a refusal's error),
 * which is also what makes its message read `sent` (or `failed`); the message's own row is not written.
 */
@Injectable()
export class OutcomesRepository {
  /**
   * Records every part's outcome, in one statement; returns the parts that changed status with it (a
   * status webhook each): refused ones, and ones whose receipt overtook their submit_sm_resp (stored in
   * `delivery_receipts` by then, and written onto the part as it is inserted). The last submission
   * recorded wins: a part taken back from a dead dispatcher and sent again takes the later SMSC id (the
   * one its receipt will carry) and forgets an earlier receipt; recording the same submission twice is a
   * no-op, so a retried recording never undoes the receipt applied in between.
   */
  async recordOutcomes(outcomes: PartOutcome[], tx: Tx): Promise<PartChange[]> {
    if (outcomes.length === 0) return [];
    await keyLookupsOnly(tx);
    outcomes = latestPerPart(outcomes);
    const { rows: changed } = await sql<PartChange>(
      tx,
      RECORD_OUTCOMES,
      [
        outcomes.map((o) => o.messageId),
        outcomes.map((o) => o.partNumber),
        outcomes.map((o) => o.accountId),
        outcomes.map((o) => o.totalParts),
        outcomes.map((o) => o.smscId),
        outcomes.map((o) => o.error),
        outcomes.map((o) => (o.receiptDueAt ? o.receiptDueAt.toISOString() : null)),
        [...new Set(outcomes.map((o) => o.batchId))],
        outcomes.map((o) => o.carrierId),
        outcomes.map((o) => o.errorCode ?? null),
      ],
      { prepared: true },
    );
    return changed;
  }
}
