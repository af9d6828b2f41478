import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { keyLookupsOnly, sql } from '../database/sql';
import type { Tx } from '../database/unit-of-work';
import type { PartStatusChange } from '../webhooks/webhook-events.service';

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
  /** The batch whose claim this part's message was sent under. */
  batchId: string;
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
/**
 * The sweeper's batches ($1: the claim timeout in ms): claimed longer ago than the timeout and listed by no
 * fresh lease, taken for the sweep's transaction; a batch whose outcomes are being recorded is held and
 * skipped.
 */
export const STALE_BATCHES = `SELECT b.batch_id FROM dispatch_batches b
  WHERE b.claimed_at < now() - $1 * interval '1 millisecond' AND NOT EXISTS (
    SELECT 1 FROM dispatcher_leases l WHERE b.batch_id = ANY(l.active_batches) AND l.heartbeat_at >= now() - $1 * interval '1 millisecond')
  FOR UPDATE OF b SKIP LOCKED`;

export const PART_CHANGE = `p.message_id AS "messageId", p.part_number AS "partNumber", p.total_parts AS "totalParts", p.status, p.receipt_at AS "at",
  extract(epoch FROM now() - p.submitted_at)::float8 AS "lagSeconds", ${MESSAGE_OF_CHANGE}`;

@Injectable()
export class DispatchRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Claims a send's due messages with one conditional UPDATE: only rows still pending or scheduled and
   * unclaimed are taken (SKIP LOCKED keeps parallel dispatchers apart), so a cancelled message is never
   * sent and none is sent twice. The claim is the message's status change: claimed rows read `sent`
   * (a refusal turns them `failed`, a dead dispatcher's claim is taken back to `pending`), so recording a
   * successful submission writes only its part. The batch gets a row (dispatch_batches) in the same
   * statement, so its claims can be found if it never records them.
   */
  async claimDue(sendId: number, limit: number, batchId: string): Promise<ClaimedMessage[]> {
    const { rows } = await sql<ClaimedMessage>(
      this.dataSource,
      // The ids are picked once (an IN (subquery) may be re-run by the planner and, with SKIP LOCKED,
      // pick more than the limit) and then updated through the primary key: with fresh rows and no
      // statistics yet, a join here can turn into a nested loop over the whole send.
      `WITH claimed AS (
         UPDATE messages m SET status = 'sent', dispatched_at = now(), claimed_by = $3::uuid, updated_at = now()
          WHERE m.id = ANY(ARRAY(
            SELECT id FROM messages
             WHERE send_id = $1 AND status IN ('pending', 'scheduled') AND dispatched_at IS NULL AND dispatch_at <= now()
             ORDER BY dispatch_at LIMIT $2 FOR UPDATE SKIP LOCKED))
            AND m.status IN ('pending', 'scheduled') AND m.dispatched_at IS NULL
          RETURNING m.id, m.account_id AS "accountId", m.to_number AS "to", m.sender, m.body, m.encoding, m.parts, m.is_test AS "isTest"
       ), batch AS (
         INSERT INTO dispatch_batches (batch_id) SELECT $3::uuid WHERE EXISTS (SELECT 1 FROM claimed)
       )
       SELECT * FROM claimed`,
      [sendId, limit, batchId],
      { prepared: true },
    );
    return rows;
  }

  /** Every claim of the batch has its outcome recorded: nothing of it is left for the sweeper. */
  async batchRecorded(batchId: string): Promise<void> {
    await sql(this.dataSource, `DELETE FROM dispatch_batches WHERE batch_id = $1`, [batchId]);
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
   * Records every part's submission outcome (and fails the messages with a refused part); returns the
   * refused parts (a `failed` status webhook each).
   */
  async recordOutcomes(outcomes: PartOutcome[], tx: Tx): Promise<PartChange[]> {
    if (outcomes.length === 0) return [];
    await keyLookupsOnly(tx);
    // First, and in a statement of its own: the outcomes' batch rows are held until this transaction
    // ends. The sweeper skips a held batch, and a batch the sweeper holds is waited for, so claims are
    // never taken back while their parts are being recorded (a successful outcome writes no message row
    // that would otherwise make the two meet).
    const batchIds = [...new Set(outcomes.map((o) => o.batchId))];
    await sql(tx, `SELECT 1 FROM dispatch_batches WHERE batch_id = ANY($1::uuid[]) FOR SHARE`, [batchIds], { prepared: true });
    outcomes = latestPerPart(outcomes);
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
           SET smsc_id = EXCLUDED.smsc_id, status = EXCLUDED.status, error = EXCLUDED.error, submitted_at = now(), receipt_due_at = EXCLUDED.receipt_due_at,
               receipt_at = NULL, receipt_stat = NULL, receipt_err = NULL
         RETURNING message_id, part_number, total_parts, status, submitted_at
       ), settled AS (
         -- Claimed messages already read sent: only a refusal changes them (and a claim taken back
         -- meanwhile, pending again, is sent after all). A successful submission writes no message row.
         UPDATE messages m SET status = CASE WHEN o.failed THEN 'failed' ELSE 'sent' END, dispatched_at = coalesce(m.dispatched_at, now()), updated_at = now()
           FROM (SELECT message_id, bool_or(smsc_id IS NULL) AS failed FROM input GROUP BY message_id) o
          WHERE m.id = o.message_id AND (m.status = 'pending' OR (m.status = 'sent' AND o.failed))
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
      { prepared: true },
    );
    return refused;
  }

  /**
   * Sends with due messages that no dispatcher has claimed, oldest due first (the sweeper's view). A skip
   * scan of messages_send_due_idx: one index probe per send with waiting messages (its earliest one),
   * however many messages wait, so a campaign's backlog costs the sweeper nothing per message.
   */
  async sendsWithUnclaimedDue(graceMs: number, limit: number): Promise<Array<{ sendId: number; due: Date }>> {
    const first = (after: string) =>
      `SELECT send_id, dispatch_at FROM messages WHERE dispatched_at IS NULL AND status IN ('pending', 'scheduled')${after} ORDER BY send_id, dispatch_at LIMIT 1`;
    const { rows } = await sql<{ sendId: number; due: Date }>(
      this.dataSource,
      `WITH RECURSIVE waiting AS (
         (${first('')})
         UNION ALL
         SELECT n.send_id, n.dispatch_at FROM waiting w CROSS JOIN LATERAL (${first(' AND send_id > w.send_id')}) n
       )
       SELECT send_id AS "sendId", dispatch_at AS due FROM waiting
        WHERE dispatch_at <= now() - $1 * interval '1 millisecond' ORDER BY dispatch_at LIMIT $2`,
      [graceMs, limit],
    );
    return rows;
  }

  /**
   * Takes back claims older than the timeout that no live dispatcher is working on (its lease is stale
   * or gone, or the batch ended without recording the message), and that have no outcome recorded; then
   * forgets the batches with nothing left unrecorded. Only the few batch rows are scanned; their
   * messages are found by `claimed_by`.
   */
  async releaseStaleClaims(timeoutMs: number): Promise<number[]> {
    return this.dataSource.transaction(async (tx) => {
      await keyLookupsOnly(tx);
      return this.releaseStale(timeoutMs, tx);
    });
  }

  private async releaseStale(timeoutMs: number, tx: EntityManager): Promise<number[]> {
    // A batch younger than the timeout cannot hold a stale claim (its messages were claimed with it), and
    // the batches claimed since their dispatcher last renewed its lease are not listed in it yet: without
    // the age test every sweep walked those in-flight batches' messages (about 0.2 s per sweep during a
    // campaign). A batch whose outcomes are being recorded right now is held (recordOutcomes) and skipped:
    // its parts are not committed yet, so its messages would look unrecorded.
    const { rows: batches } = await sql<{ batch_id: string }>(tx, STALE_BATCHES, [timeoutMs]);
    if (batches.length === 0) return [];
    const batchIds = batches.map((b) => b.batch_id);
    // Statements of their own after the lock: each sees every part committed before it was taken.
    const { rows } = await sql<{ send_id: number }>(
      tx,
      `UPDATE messages m SET status = 'pending', dispatched_at = NULL, claimed_by = NULL, updated_at = now()
        WHERE m.claimed_by = ANY($2::uuid[])
          AND m.status = 'sent' AND m.dispatched_at < now() - $1 * interval '1 millisecond'
          AND NOT EXISTS (SELECT 1 FROM message_parts p WHERE p.message_id = m.id)
        RETURNING m.send_id`,
      [timeoutMs, batchIds],
    );
    await sql(
      tx,
      `DELETE FROM dispatch_batches b
        WHERE b.batch_id = ANY($1::uuid[])
          AND NOT EXISTS (SELECT 1 FROM messages m WHERE m.claimed_by = b.batch_id AND NOT EXISTS (SELECT 1 FROM message_parts p WHERE p.message_id = m.id))`,
      [batchIds],
    );
    return [...new Set(rows.map((r) => r.send_id))];
  }
}

/**
 * One outcome per part, the last one given. Today a recording carries one batch, in which a message is
 * sent once; this keeps a caller that ever mixes batches (a message taken back and sent again under a
 * later claim) from failing its whole group: one INSERT … ON CONFLICT DO UPDATE cannot touch a row twice.
 */
export function latestPerPart(outcomes: PartOutcome[]): PartOutcome[] {
  const byPart = new Map<string, PartOutcome>();
  for (const o of outcomes) byPart.set(`${o.messageId}/${o.partNumber}`, o);
  return byPart.size === outcomes.length ? outcomes : [...byPart.values()];
}
