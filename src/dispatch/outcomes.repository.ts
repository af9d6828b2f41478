import { Injectable } from '@nestjs/common';
import { keyLookupsOnly, sql } from '../database/sql';
import type { Tx } from '../database/unit-of-work';
import { latestPerPart, PART_CHANGE, PartChange, PartOutcome } from './part-changes';

/**
 * Submission outcomes: each part's is one row of `message_parts` (its SMSC id, or a refusal's error),
 * which is also what makes its message read `sent` (or `failed`); the message's own row is not written.
 */
@Injectable()
export class OutcomesRepository {
  /**
   * Records every part's outcome; returns the refused parts (a `failed` status webhook each). The last
   * submission recorded wins: a part taken back from a dead dispatcher and sent again takes the later
   * SMSC id (the one its receipt will carry) and forgets an earlier receipt.
   */
  async recordOutcomes(outcomes: PartOutcome[], tx: Tx): Promise<PartChange[]> {
    if (outcomes.length === 0) return [];
    await keyLookupsOnly(tx);
    // First, and in a statement of its own: the outcomes' batch rows are held until this transaction
    // ends. The sweeper skips a held batch, and a batch the sweeper holds is waited for, so a batch is
    // never released while its outcomes are being recorded.
    const batchIds = [...new Set(outcomes.map((o) => o.batchId))];
    await sql(tx, `SELECT 1 FROM dispatch_batches WHERE batch_id = ANY($1::uuid[]) FOR SHARE`, [batchIds], { prepared: true });
    outcomes = latestPerPart(outcomes);
    const { rows: refused } = await sql<PartChange>(
      tx,
      `WITH parts AS (
         INSERT INTO message_parts (message_id, part_number, total_parts, smsc_id, status, error, receipt_due_at)
         SELECT message_id, part_number, total_parts, smsc_id, CASE WHEN smsc_id IS NULL THEN 'failed' ELSE 'submitted' END, error, receipt_due_at
           FROM unnest($1::uuid[], $2::smallint[], $3::smallint[], $4::text[], $5::text[], $6::timestamptz[]) AS t(message_id, part_number, total_parts, smsc_id, error, receipt_due_at)
         ON CONFLICT (message_id, part_number) DO UPDATE
           SET smsc_id = EXCLUDED.smsc_id, status = EXCLUDED.status, error = EXCLUDED.error, submitted_at = now(), receipt_due_at = EXCLUDED.receipt_due_at,
               receipt_at = NULL, receipt_stat = NULL, receipt_err = NULL
         RETURNING message_id, part_number, total_parts, status, submitted_at, coalesce(receipt_at, now()) AS receipt_at
       )
       SELECT ${PART_CHANGE} FROM parts p JOIN messages msg ON msg.id = p.message_id WHERE p.status = 'failed'`,
      [
        outcomes.map((o) => o.messageId),
        outcomes.map((o) => o.partNumber),
        outcomes.map((o) => o.totalParts),
        outcomes.map((o) => o.smscId),
        outcomes.map((o) => o.error),
        outcomes.map((o) => (o.receiptDueAt ? o.receiptDueAt.toISOString() : null)),
      ],
      { prepared: true },
    );
    return refused;
  }
}
