import { Injectable } from '@nestjs/common';
import { keyLookupsOnly, sql } from '../database/sql';
import type { Tx } from '../database/unit-of-work';
import { latestPerPart, MESSAGE_PART_CHANGE, PartChange, PartOutcome } from './part-changes';

/**
 * Submission outcomes. A single-part message is its own part: its outcome is one update of its row
 * (status `sent` or `failed`, the SMSC id or the refusal's error, the submission time), the message's
 * only write between its insert and its receipt. A multi-part message's parts are rows of
 * `message_parts`, and the message turns `sent` (or `failed`) with its first recorded part.
 */
@Injectable()
export class OutcomesRepository {
  /** Records every part's outcome; returns the refused parts (a `failed` status webhook each). */
  async recordOutcomes(outcomes: PartOutcome[], tx: Tx): Promise<PartChange[]> {
    if (outcomes.length === 0) return [];
    await keyLookupsOnly(tx);
    // First, and in a statement of its own: the outcomes' batch rows are held until this transaction
    // ends. The sweeper skips a held batch, and a batch the sweeper holds is waited for, so a batch is
    // never released while its outcomes are being recorded.
    const batchIds = [...new Set(outcomes.map((o) => o.batchId))];
    await sql(tx, `SELECT 1 FROM dispatch_batches WHERE batch_id = ANY($1::uuid[]) FOR SHARE`, [batchIds], { prepared: true });
    outcomes = latestPerPart(outcomes);
    const single = outcomes.filter((o) => o.totalParts === 1);
    const multi = outcomes.filter((o) => o.totalParts > 1);
    const refused: PartChange[] = [];
    if (single.length > 0) refused.push(...(await this.recordSingle(single, tx)));
    if (multi.length > 0) refused.push(...(await this.recordParts(multi, tx)));
    return refused;
  }

  /**
   * The last submission recorded wins: a message taken back from a dead dispatcher and sent again takes
   * the later SMSC id (the one its receipt will carry) and forgets an earlier receipt.
   */
  private async recordSingle(outcomes: PartOutcome[], tx: Tx): Promise<PartChange[]> {
    const { rows } = await sql<PartChange>(
      tx,
      `WITH recorded AS (
         UPDATE messages msg SET status = CASE WHEN i.smsc_id IS NULL THEN 'failed' ELSE 'sent' END, smsc_id = i.smsc_id, error = i.error,
                submitted_at = now(), receipt_due_at = i.receipt_due_at, receipt_at = NULL, receipt_stat = NULL, receipt_err = NULL, updated_at = now()
           FROM unnest($1::uuid[], $2::text[], $3::text[], $4::timestamptz[]) AS i(message_id, smsc_id, error, receipt_due_at)
          WHERE msg.id = i.message_id AND msg.status <> 'cancelled'
         RETURNING msg.*
       )
       SELECT ${MESSAGE_PART_CHANGE} FROM recorded msg WHERE msg.status = 'failed'`,
      [outcomes.map((o) => o.messageId), outcomes.map((o) => o.smscId), outcomes.map((o) => o.error), outcomes.map((o) => (o.receiptDueAt ? o.receiptDueAt.toISOString() : null))],
      { prepared: true },
    );
    return rows;
  }

  private async recordParts(outcomes: PartOutcome[], tx: Tx): Promise<PartChange[]> {
    const { rows } = await sql<PartChange>(
      tx,
      `WITH input AS (
         SELECT * FROM unnest($1::uuid[], $2::smallint[], $3::smallint[], $4::text[], $5::text[], $6::timestamptz[])
           AS t(message_id, part_number, total_parts, smsc_id, error, receipt_due_at)
       ), parts AS (
         INSERT INTO message_parts (message_id, part_number, total_parts, smsc_id, status, error, receipt_due_at)
         SELECT message_id, part_number, total_parts, smsc_id, CASE WHEN smsc_id IS NULL THEN 'failed' ELSE 'submitted' END, error, receipt_due_at FROM input
         ON CONFLICT (message_id, part_number) DO UPDATE
           SET smsc_id = EXCLUDED.smsc_id, status = EXCLUDED.status, error = EXCLUDED.error, submitted_at = now(), receipt_due_at = EXCLUDED.receipt_due_at,
               receipt_at = NULL, receipt_stat = NULL, receipt_err = NULL
         RETURNING message_id, part_number, total_parts, status, submitted_at, receipt_at
       ), messages_sent AS (
         -- The message reads sent with its first recorded part, failed with its first refused one.
         UPDATE messages m SET status = CASE WHEN o.failed THEN 'failed' ELSE 'sent' END, submitted_at = coalesce(m.submitted_at, now()), updated_at = now()
           FROM (SELECT message_id, bool_or(smsc_id IS NULL) AS failed FROM input GROUP BY message_id) o
          WHERE m.id = o.message_id AND (m.status IN ('pending', 'scheduled') OR (m.status = 'sent' AND o.failed))
       )
       SELECT p.message_id AS "messageId", p.part_number AS "partNumber", p.total_parts AS "totalParts", p.status, now() AS "at", 0::float8 AS "lagSeconds",
              msg.account_id AS "accountId", msg.to_number AS "to", msg.sender, msg.body, msg.custom_ref AS "customRef"
         FROM parts p JOIN messages msg ON msg.id = p.message_id
        WHERE p.status = 'failed'`,
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
    return rows;
  }
}
