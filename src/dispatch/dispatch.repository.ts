import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { sql } from '../database/sql';
import type { Tx } from '../database/unit-of-work';
import type { PartStatusChange } from '../webhooks/webhook-events.service';
import type { DeliveryReceipt } from './carriers/carrier';

export interface ClaimedMessage {
  id: string;
  accountId: number;
  to: string;
  sender: string;
  body: string;
  encoding: 'gsm7' | 'ucs2';
  parts: number;
  isTest: boolean;
}

export interface PartOutcome {
  messageId: string;
  partNumber: number;
  totalParts: number;
  smscId: string | null;
  error: string | null;
  /** Simulated carrier only: when its receipt is due. */
  receiptDueAt: Date | null;
}

/** A part whose delivery status changed, with what its status webhook says. */
export interface PartChange extends PartStatusChange {
  /** Seconds from the part's submission to this change (receipt lag). */
  lagSeconds: number;
}

const MESSAGE_OF_CHANGE = `msg.account_id AS "accountId", msg.to_number AS "to", msg.sender, msg.body, msg.custom_ref AS "customRef"`;
const PART_CHANGE = `p.message_id AS "messageId", p.part_number AS "partNumber", p.total_parts AS "totalParts", p.status, p.receipt_at AS "at",
  extract(epoch FROM now() - p.submitted_at)::float8 AS "lagSeconds", ${MESSAGE_OF_CHANGE}`;

@Injectable()
export class DispatchRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Claims a send's due messages with one conditional UPDATE: only rows still pending or scheduled and
   * unclaimed are taken (SKIP LOCKED keeps parallel dispatchers apart), so a cancelled message is never
   * sent and none is sent twice. Claimed rows read `pending` until their outcome is recorded.
   */
  async claimDue(sendId: number, limit: number, batchId: string): Promise<ClaimedMessage[]> {
    const { rows } = await sql<ClaimedMessage>(
      this.dataSource,
      // The ids are picked once (an IN (subquery) may be re-run by the planner and, with SKIP LOCKED,
      // pick more than the limit) and then updated through the primary key: with fresh rows and no
      // statistics yet, a join here can turn into a nested loop over the whole send.
      `UPDATE messages m SET status = 'pending', dispatched_at = now(), claimed_by = $3, updated_at = now()
        WHERE m.id = ANY(ARRAY(
          SELECT id FROM messages
           WHERE send_id = $1 AND status IN ('pending', 'scheduled') AND dispatched_at IS NULL AND dispatch_at <= now()
           ORDER BY dispatch_at LIMIT $2 FOR UPDATE SKIP LOCKED))
          AND m.status IN ('pending', 'scheduled') AND m.dispatched_at IS NULL
        RETURNING m.id, m.account_id AS "accountId", m.to_number AS "to", m.sender, m.body, m.encoding, m.parts, m.is_test AS "isTest"`,
      [sendId, limit, batchId],
    );
    return rows;
  }

  /** Who a send belongs to and which request created it, for the dispatch log lines; null when it is gone. */
  async sendTrace(sendId: number): Promise<{ accountId: number; requestId: string | null } | null> {
    const { rows } = await sql<{ accountId: number; requestId: string | null }>(
      this.dataSource,
      `SELECT account_id AS "accountId", request_id AS "requestId" FROM sends WHERE id = $1`,
      [sendId],
    );
    return rows[0] ?? null;
  }

  /** This dispatcher is alive and working on these batches (one small row, however many claims). */
  async renewLease(dispatcherId: string, activeBatches: string[]): Promise<void> {
    await sql(
      this.dataSource,
      `INSERT INTO dispatcher_leases (dispatcher_id, active_batches) VALUES ($1, $2::uuid[])
       ON CONFLICT (dispatcher_id) DO UPDATE SET active_batches = EXCLUDED.active_batches, heartbeat_at = now()`,
      [dispatcherId, activeBatches],
    );
  }

  async dropLease(dispatcherId: string): Promise<void> {
    await sql(this.dataSource, `DELETE FROM dispatcher_leases WHERE dispatcher_id = $1`, [dispatcherId]);
  }

  /** Leases of dispatchers gone for an hour (crashed, so never dropped): nothing can refer to them any more. */
  async forgetDeadLeases(): Promise<void> {
    await sql(this.dataSource, `DELETE FROM dispatcher_leases WHERE heartbeat_at < now() - interval '1 hour'`);
  }

  /**
   * Records every part's submission outcome and the messages' new status (sent, or failed when a part
   * was refused), then applies any receipt that arrived before its submit_sm_resp was recorded.
   */
  async recordOutcomes(outcomes: PartOutcome[], tx: Tx): Promise<PartChange[]> {
    if (outcomes.length === 0) return [];
    // Parts the carrier refused are final at once: they are changes too (a `failed` status webhook each).
    const { rows: refused } = await sql<PartChange>(
      tx,
      `WITH input AS (
         SELECT * FROM unnest($1::uuid[], $2::smallint[], $3::smallint[], $4::text[], $5::text[], $6::timestamptz[])
           AS t(message_id, part_number, total_parts, smsc_id, error, receipt_due_at)
       ), parts AS (
         INSERT INTO message_parts (message_id, part_number, total_parts, smsc_id, status, error, receipt_due_at)
         SELECT message_id, part_number, total_parts, smsc_id, CASE WHEN smsc_id IS NULL THEN 'failed' ELSE 'submitted' END, error, receipt_due_at FROM input
         ON CONFLICT (message_id, part_number) DO UPDATE
           SET smsc_id = EXCLUDED.smsc_id, status = EXCLUDED.status, error = EXCLUDED.error, submitted_at = now(), receipt_due_at = EXCLUDED.receipt_due_at
         RETURNING message_id, part_number, total_parts, status, submitted_at
       ), settled AS (
         UPDATE messages m SET status = CASE WHEN o.failed THEN 'failed' ELSE 'sent' END, updated_at = now()
           FROM (SELECT message_id, bool_or(smsc_id IS NULL) AS failed FROM input GROUP BY message_id) o
          WHERE m.id = o.message_id AND m.status = 'pending'
       )
       SELECT p.message_id AS "messageId", p.part_number AS "partNumber", p.total_parts AS "totalParts", p.status, now() AS "at", 0::float8 AS "lagSeconds",
              ${MESSAGE_OF_CHANGE}
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
    );
    const smscIds = outcomes.flatMap((o) => (o.smscId ? [o.smscId] : []));
    return [...refused, ...(await this.applyStoredReceipts(smscIds, tx))];
  }

  /** Stores receipts (duplicates ignored) and applies those whose parts are known, in one transaction. */
  async recordReceipts(receipts: DeliveryReceipt[], tx: Tx): Promise<PartChange[]> {
    if (receipts.length === 0) return [];
    await sql(
      tx,
      `INSERT INTO delivery_receipts (smsc_id, state, stat, err, done_at, received_at)
       SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::timestamptz[], $6::timestamptz[])
       ON CONFLICT (smsc_id) DO NOTHING`,
      [
        receipts.map((r) => r.smscId),
        receipts.map((r) => r.state),
        receipts.map((r) => r.stat),
        receipts.map((r) => r.err),
        receipts.map((r) => r.doneAt.toISOString()),
        receipts.map((r) => r.receivedAt.toISOString()),
      ],
    );
    return this.applyStoredReceipts(
      receipts.map((r) => r.smscId),
      tx,
    );
  }

  /** Applies stored, unapplied receipts for these SMSC ids to their parts, then settles the messages. */
  async applyStoredReceipts(smscIds: string[] | 'all-unapplied', tx: Tx): Promise<PartChange[]> {
    const filter = smscIds === 'all-unapplied' ? `r.received_at < now() - interval '1 second'` : `r.smsc_id = ANY($1::text[])`;
    const { rows } = await sql<PartChange>(
      tx,
      `WITH matched AS (
         UPDATE delivery_receipts r SET applied_at = now()
          WHERE ${filter} AND r.applied_at IS NULL
            AND EXISTS (SELECT 1 FROM message_parts p WHERE p.smsc_id = r.smsc_id)
         RETURNING r.smsc_id, r.state, r.done_at
       )
       UPDATE message_parts p SET status = matched.state, receipt_at = matched.done_at
         FROM matched, messages msg WHERE p.smsc_id = matched.smsc_id AND p.status = 'submitted' AND msg.id = p.message_id
       RETURNING ${PART_CHANGE}`,
      smscIds === 'all-unapplied' ? [] : [smscIds],
    );
    await this.settleMessages([...new Set(rows.map((r) => r.messageId))], tx);
    return rows;
  }

  /** Simulated carrier: every part whose receipt is due gets one (failed for numbers ending in the fail suffix). */
  async applyDueSimulatedReceipts(failSuffix: string, limit: number, tx: Tx): Promise<PartChange[]> {
    const { rows } = await sql<PartChange>(
      tx,
      `WITH due AS MATERIALIZED (
         SELECT message_id, part_number FROM message_parts
          WHERE status = 'submitted' AND receipt_due_at <= now()
          ORDER BY receipt_due_at LIMIT $2 FOR UPDATE SKIP LOCKED
       )
       UPDATE message_parts p SET status = CASE WHEN right(msg.to_number, length($1)) = $1 THEN 'failed' ELSE 'delivered' END, receipt_at = now()
         FROM due, messages msg
        WHERE p.message_id = due.message_id AND p.part_number = due.part_number AND msg.id = p.message_id
       RETURNING ${PART_CHANGE}`,
      [failSuffix, limit],
    );
    await this.settleMessages([...new Set(rows.map((r) => r.messageId))], tx);
    return rows;
  }

  /** A message is delivered when all its parts are, failed when any part failed (interface: receipts per part). */
  private async settleMessages(messageIds: string[], tx: Tx): Promise<void> {
    if (messageIds.length === 0) return;
    await sql(
      tx,
      `UPDATE messages msg SET status = s.status, updated_at = now()
         FROM (
           SELECT message_id,
                  CASE WHEN bool_or(status = 'failed') THEN 'failed'
                       WHEN bool_and(status = 'delivered') AND count(*) = max(total_parts) THEN 'delivered'
                       ELSE 'sent' END AS status
             FROM message_parts WHERE message_id = ANY($1::uuid[]) GROUP BY message_id
         ) s
        WHERE msg.id = s.message_id AND msg.status = 'sent' AND s.status <> 'sent'`,
      [messageIds],
    );
  }

  /** Sends with due messages that no dispatcher has claimed, oldest due first (the sweeper's view). */
  async sendsWithUnclaimedDue(graceMs: number, limit: number): Promise<Array<{ sendId: number; due: Date }>> {
    const { rows } = await sql<{ sendId: number; due: Date }>(
      this.dataSource,
      `SELECT send_id AS "sendId", min(dispatch_at) AS due FROM messages
        WHERE status IN ('pending', 'scheduled') AND dispatched_at IS NULL AND dispatch_at <= now() - $1 * interval '1 millisecond'
        GROUP BY send_id ORDER BY min(dispatch_at) LIMIT $2`,
      [graceMs, limit],
    );
    return rows;
  }

  /**
   * Takes back claims older than the timeout that no live dispatcher is working on (its lease is stale
   * or gone, or the batch ended without recording the message), and that have no outcome recorded.
   */
  async releaseStaleClaims(timeoutMs: number): Promise<number[]> {
    const { rows } = await sql<{ send_id: number }>(
      this.dataSource,
      `UPDATE messages m SET dispatched_at = NULL, claimed_by = NULL, updated_at = now()
        WHERE m.status = 'pending' AND m.dispatched_at < now() - $1 * interval '1 millisecond'
          AND NOT EXISTS (SELECT 1 FROM message_parts p WHERE p.message_id = m.id)
          AND NOT EXISTS (
            SELECT 1 FROM dispatcher_leases l
             WHERE m.claimed_by = ANY(l.active_batches) AND l.heartbeat_at >= now() - $1 * interval '1 millisecond')
        RETURNING m.send_id`,
      [timeoutMs],
    );
    return [...new Set(rows.map((r) => r.send_id))];
  }
}
