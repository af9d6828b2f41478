import { Injectable } from '@nestjs/common';
import { keyLookupsOnly, sql } from '../../database/sql';
import type { Tx } from '../../database/unit-of-work';
import type { DeliveryReceipt } from '../worker/carriers/carrier';
import { addBuckets, bucketStart, uuidAt } from '../../database/partitioning/partition-bounds';
import { PART_CHANGE, PartChange } from './part-changes';

/**
 * Receipts ($1..$6: SMSC ids, states, stats, errs, done and received times in epoch ms; $7 their carriers)
 * written straight onto their parts, matched on (carrier, SMSC id), while the part still waits for one (or
 * its wait closed without one: a late receipt still tells); those whose part is not recorded yet are
 * stored in `delivery_receipts`.
 * A receipt's key carries no time, so its lookup would probe every month partition of message_parts (two
 * index descents per partition and receipt: 88 of the 134 buffer reads per message of a campaign on a
 * 10-million-message history). Parts of messages made from $8 to $9 (the last month or two: nearly every
 * receipt's) are matched first, in those partitions only; only the receipts that found no part there
 * (a scheduled message made long before it went out, a repeat of a settled part's receipt, an early one)
 * are looked up in every partition. Which receipts are left is a NOT IN, which PostgreSQL answers from a
 * hash of `recent` even with hash joins off (keyLookupsOnly): a NOT EXISTS became a nested loop over
 * `recent` per receipt (2.4 to 4.7 s per statement of a few thousand receipts).
 */
export const RECORD_RECEIPTS = `WITH input AS (
    SELECT carrier_id, smsc_id, state, stat, err, to_timestamp(done_ms / 1000.0) AS done_at, to_timestamp(received_ms / 1000.0) AS received_at
      FROM unnest($7::smallint[], $1::text[], $2::text[], $3::text[], $4::text[], $5::float8[], $6::float8[]) AS t(carrier_id, smsc_id, state, stat, err, done_ms, received_ms)
  ), recent AS (
    UPDATE message_parts p SET status = i.state, receipt_at = i.done_at, receipt_stat = i.stat, receipt_err = i.err
      FROM input i WHERE p.message_id >= $8::uuid AND p.message_id < $9::uuid
                     AND p.carrier_id = i.carrier_id AND p.smsc_id = i.smsc_id AND p.status IN ('submitted', 'unconfirmed')
    RETURNING p.carrier_id, p.smsc_id, ${PART_CHANGE}
  ), rest AS MATERIALIZED (
    SELECT * FROM input i WHERE (i.carrier_id, i.smsc_id) NOT IN (SELECT carrier_id, smsc_id FROM recent)
  ), older AS (
    UPDATE message_parts p SET status = i.state, receipt_at = i.done_at, receipt_stat = i.stat, receipt_err = i.err
      FROM rest i WHERE p.carrier_id = i.carrier_id AND p.smsc_id = i.smsc_id AND p.status IN ('submitted', 'unconfirmed')
    RETURNING ${PART_CHANGE}
  ), early AS (
    INSERT INTO delivery_receipts (carrier_id, smsc_id, state, stat, err, done_at, received_at)
    SELECT carrier_id, smsc_id, state, stat, err, done_at, received_at FROM rest i
     WHERE NOT EXISTS (SELECT 1 FROM message_parts p WHERE p.carrier_id = i.carrier_id AND p.smsc_id = i.smsc_id)
    ON CONFLICT (carrier_id, smsc_id) DO NOTHING
  )
  SELECT "accountId", "messageId", "partNumber", "totalParts", status, "atMs", "lagSeconds" FROM recent
  UNION ALL
  SELECT * FROM older`;

/** The message ids whose parts a receipt is first looked for among: from the start of last month to a day ahead. */
export function recentPartsWindow(now: Date): [from: string, to: string] {
  return [uuidAt(addBuckets(bucketStart(now, 'month'), 'month', -1).getTime()), uuidAt(now.getTime() + 86_400_000)];
}

/** Stored receipts older than a second whose part is recorded by now, applied to it. */
export const APPLY_LATE_RECEIPTS = `WITH matched AS (
    UPDATE delivery_receipts r SET applied_at = now()
     WHERE r.received_at < now() - interval '1 second' AND r.applied_at IS NULL
       AND EXISTS (SELECT 1 FROM message_parts p WHERE p.carrier_id = r.carrier_id AND p.smsc_id = r.smsc_id)
    RETURNING r.carrier_id, r.smsc_id, r.state, r.stat, r.err, r.done_at
  )
  UPDATE message_parts p SET status = matched.state, receipt_at = matched.done_at, receipt_stat = matched.stat, receipt_err = matched.err
    FROM matched WHERE p.carrier_id = matched.carrier_id AND p.smsc_id = matched.smsc_id AND p.status IN ('submitted', 'unconfirmed')
  RETURNING ${PART_CHANGE}`;

/**
 * Up to $1 stored early receipts nothing needs any more: applied over an hour ago (a repeat of one finds its
 * part settled and its part recorded, so it is neither applied nor stored again), or never applied and
 * received over a week ago (no part of that carrier and SMSC id was recorded: a stray or a foreign receipt).
 */
export const PURGE_EARLY_RECEIPTS = `DELETE FROM delivery_receipts WHERE ctid = ANY(ARRAY(
    SELECT ctid FROM delivery_receipts
     WHERE applied_at < now() - interval '1 hour' OR (applied_at IS NULL AND received_at < now() - interval '7 days')
     LIMIT $1))`;

/** Up to $2 simulated parts whose receipt is due, settled: failed when the number ends in $1, else delivered. */
export const APPLY_SIMULATED_RECEIPTS = `WITH due AS MATERIALIZED (
    SELECT message_id, part_number FROM message_parts
     WHERE status = 'submitted' AND receipt_due_at <= now()
     ORDER BY receipt_due_at LIMIT $2 FOR UPDATE SKIP LOCKED
  )
  UPDATE message_parts p SET status = CASE WHEN right(msg.to_number, length($1)) = $1 THEN 'failed' ELSE 'delivered' END, receipt_at = now(), receipt_due_at = NULL
    FROM due, messages msg
   WHERE p.message_id = due.message_id AND p.part_number = due.part_number AND msg.id = p.message_id
  RETURNING ${PART_CHANGE}`;

/**
 * Receipts, in the caller's transaction (which also writes the status webhooks): each is written
 * straight onto the part it settles, one write, which is also what settles the part's message (a
 * message's status is its parts': message-status.ts). Every statement looks rows up by key
 * (keyLookupsOnly), however stale the statistics of the growing tables.
 */
@Injectable()
export class ReceiptsRepository {
  /**
   * Writes receipts straight onto their parts (status, done date, stat and err). A receipt whose part is
   * not recorded yet (it overtook its submit_sm_resp) is stored in `delivery_receipts` instead and applied
   * when the part is; a duplicate of an applied receipt changes nothing.
   */
  async recordReceipts(receipts: DeliveryReceipt[], tx: Tx): Promise<PartChange[]> {
    if (receipts.length === 0) return [];
    await keyLookupsOnly(tx);
    const { rows } = await sql<PartChange>(
      tx,
      RECORD_RECEIPTS,
      [
        receipts.map((r) => r.smscId),
        receipts.map((r) => r.state),
        receipts.map((r) => r.stat),
        receipts.map((r) => r.err),
        // Epoch milliseconds: cheaper to write than ISO texts, and exact to the millisecond as a Date is.
        receipts.map((r) => r.doneAt.getTime()),
        receipts.map((r) => r.receivedAt.getTime()),
        receipts.map((r) => r.carrierId),
        ...recentPartsWindow(new Date()),
      ],
      { prepared: true },
    );
    return rows;
  }

  /**
   * Applies stored receipts (ones that overtook their part's submit_sm_resp) whose part is recorded by
   * now. A part's recording applies the ones already stored; this catches a receipt stored while its part
   * was being recorded (the sweeper's step, for receipts older than a second).
   */
  async applyLateReceipts(tx: Tx): Promise<PartChange[]> {
    await keyLookupsOnly(tx);
    const { rows } = await sql<PartChange>(tx, APPLY_LATE_RECEIPTS, [], { prepared: true });
    return rows;
  }

  /** Deletes up to `limit` early receipts past their use (PURGE_EARLY_RECEIPTS); answers how many. */
  async purgeEarlyReceipts(limit: number, tx: Tx): Promise<number> {
    const { rowCount } = await sql(tx, PURGE_EARLY_RECEIPTS, [limit]);
    return rowCount ?? 0;
  }

  /** Simulated carrier: every part whose receipt is due gets one (failed for numbers ending in the fail suffix). */
  async applyDueSimulatedReceipts(failSuffix: string, limit: number, tx: Tx): Promise<PartChange[]> {
    await keyLookupsOnly(tx);
    const { rows } = await sql<PartChange>(tx, APPLY_SIMULATED_RECEIPTS, [failSuffix, limit]);
    return rows;
  }
}
