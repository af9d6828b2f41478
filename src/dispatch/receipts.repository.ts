import { Injectable } from '@nestjs/common';
import { keyLookupsOnly, sql } from '../database/sql';
import type { Tx } from '../database/unit-of-work';
import type { DeliveryReceipt } from './carriers/carrier';
import { MESSAGE_PART_CHANGE, PART_CHANGE, PartChange } from './part-changes';

/** Receipt rows `r` (state, stat, err, done_at, smsc_id) applied: onto single-part messages, and onto parts. */
const APPLY = (from: string) => `
  single AS (
    UPDATE messages msg SET status = r.state, receipt_at = r.done_at, receipt_stat = r.stat, receipt_err = r.err, updated_at = now()
      FROM ${from} r WHERE msg.smsc_id = r.smsc_id AND msg.status = 'sent'
    RETURNING ${MESSAGE_PART_CHANGE}
  ), parts AS (
    UPDATE message_parts p SET status = r.state, receipt_at = r.done_at, receipt_stat = r.stat, receipt_err = r.err
      FROM ${from} r WHERE p.smsc_id = r.smsc_id AND p.status = 'submitted'
    RETURNING p.message_id, p.part_number, p.total_parts, p.status, p.receipt_at, p.submitted_at
  )`;
const CHANGES = `SELECT * FROM single UNION ALL SELECT ${PART_CHANGE} FROM parts p JOIN messages msg ON msg.id = p.message_id`;
/** A receipt `r` whose message or part is recorded. */
const RECORDED = `(EXISTS (SELECT 1 FROM messages m WHERE m.smsc_id = r.smsc_id) OR EXISTS (SELECT 1 FROM message_parts p WHERE p.smsc_id = r.smsc_id))`;

/**
 * Receipts and what they settle, in the caller's transaction (which also writes the status webhooks).
 * A single-part message is settled by one update of its own row; a multi-part message's receipt is
 * written onto its part, and the message settles once all its parts have. Every statement looks rows up
 * by key (keyLookupsOnly), however stale the statistics of the growing tables.
 */
@Injectable()
export class ReceiptsRepository {
  /**
   * Writes receipts straight onto what they settle (status, done date, stat and err: one write per
   * receipt). A receipt whose submission is not recorded yet (it overtook its submit_sm_resp) is stored in
   * `delivery_receipts` instead and applied when the submission is; a duplicate of an applied receipt
   * changes nothing.
   */
  async recordReceipts(receipts: DeliveryReceipt[], tx: Tx): Promise<PartChange[]> {
    if (receipts.length === 0) return [];
    await keyLookupsOnly(tx);
    const { rows } = await sql<PartChange>(
      tx,
      `WITH input AS (
         SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::timestamptz[], $6::timestamptz[]) AS t(smsc_id, state, stat, err, done_at, received_at)
       ), ${APPLY('input')}, early AS (
         INSERT INTO delivery_receipts (smsc_id, state, stat, err, done_at, received_at)
         SELECT smsc_id, state, stat, err, done_at, received_at FROM input r WHERE NOT ${RECORDED}
         ON CONFLICT (smsc_id) DO NOTHING
       )
       ${CHANGES}`,
      [
        receipts.map((r) => r.smscId),
        receipts.map((r) => r.state),
        receipts.map((r) => r.stat),
        receipts.map((r) => r.err),
        receipts.map((r) => r.doneAt.toISOString()),
        receipts.map((r) => r.receivedAt.toISOString()),
      ],
      { prepared: true },
    );
    await this.settleMessages(rows, tx);
    return rows;
  }

  /** Applies stored receipts (ones that overtook their submission) for these SMSC ids, then settles the messages. */
  async applyStoredReceipts(smscIds: string[] | 'all-unapplied', tx: Tx): Promise<PartChange[]> {
    if (smscIds !== 'all-unapplied' && smscIds.length === 0) return [];
    await keyLookupsOnly(tx);
    const filter = smscIds === 'all-unapplied' ? `r.received_at < now() - interval '1 second'` : `r.smsc_id = ANY($1::text[])`;
    const { rows } = await sql<PartChange>(
      tx,
      `WITH matched AS (
         UPDATE delivery_receipts r SET applied_at = now() WHERE ${filter} AND r.applied_at IS NULL AND ${RECORDED}
         RETURNING r.smsc_id, r.state, r.stat, r.err, r.done_at
       ), ${APPLY('matched')}
       ${CHANGES}`,
      smscIds === 'all-unapplied' ? [] : [smscIds],
      { prepared: true },
    );
    await this.settleMessages(rows, tx);
    return rows;
  }

  /** Simulated carrier: every part whose receipt is due gets one (failed for numbers ending in the fail suffix). */
  async applyDueSimulatedReceipts(failSuffix: string, limit: number, tx: Tx): Promise<PartChange[]> {
    await keyLookupsOnly(tx);
    const outcome = `CASE WHEN right(msg.to_number, length($1)) = $1 THEN 'failed' ELSE 'delivered' END`;
    const { rows: single } = await sql<PartChange>(
      tx,
      `WITH due AS MATERIALIZED (
         SELECT id FROM messages WHERE receipt_due_at <= now() ORDER BY receipt_due_at LIMIT $2 FOR UPDATE SKIP LOCKED
       )
       UPDATE messages msg SET status = CASE WHEN msg.status = 'sent' THEN ${outcome} ELSE msg.status END, receipt_at = now(), receipt_due_at = NULL, updated_at = now()
         FROM due WHERE msg.id = due.id
       RETURNING ${MESSAGE_PART_CHANGE}`,
      [failSuffix, limit],
    );
    const { rows: parts } = await sql<PartChange>(
      tx,
      `WITH due AS MATERIALIZED (
         SELECT message_id, part_number FROM message_parts
          WHERE status = 'submitted' AND receipt_due_at <= now()
          ORDER BY receipt_due_at LIMIT $2 FOR UPDATE SKIP LOCKED
       )
       UPDATE message_parts p SET status = ${outcome}, receipt_at = now(), receipt_due_at = NULL
         FROM due, messages msg
        WHERE p.message_id = due.message_id AND p.part_number = due.part_number AND msg.id = p.message_id
       RETURNING ${PART_CHANGE}`,
      [failSuffix, limit],
    );
    await this.settleMessages(parts, tx);
    return [...single.filter((c) => c.status === 'delivered' || c.status === 'failed'), ...parts];
  }

  /**
   * A multi-part message is delivered when all its parts are, failed when any part failed (interface:
   * receipts per part); it reads its parts by key (a nested loop over the message ids, whatever the
   * table's statistics say). A single-part message was settled by its receipt's own update.
   */
  private async settleMessages(changes: PartChange[], tx: Tx): Promise<void> {
    const multi = [...new Set(changes.filter((c) => c.totalParts > 1).map((c) => c.messageId))];
    if (multi.length === 0) return;
    await sql(
      tx,
      `UPDATE messages msg SET status = agg.status, updated_at = now()
         FROM unnest($1::uuid[]) AS x(message_id)
         CROSS JOIN LATERAL (
           SELECT CASE WHEN bool_or(p.status = 'failed') THEN 'failed'
                       WHEN bool_and(p.status = 'delivered') AND count(*) = max(p.total_parts) THEN 'delivered'
                       ELSE 'sent' END AS status
             FROM message_parts p WHERE p.message_id = x.message_id
         ) agg
        WHERE msg.id = x.message_id AND msg.status = 'sent' AND agg.status IN ('delivered', 'failed')`,
      [multi],
      { prepared: true },
    );
  }
}
