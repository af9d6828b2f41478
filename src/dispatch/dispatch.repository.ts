import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { keyLookupsOnly, sql } from '../database/sql';
import { inBatch, NO_PART, UNDISPATCHED } from '../messaging/dispatch-order';

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

/** What one claim took: its messages, and whether it moved past any (a claim of only cancelled ones takes none). */
export interface Claim {
  messages: ClaimedMessage[];
  /** False once the send has nothing due left to take. */
  moved: boolean;
}

/** A position in a send's dispatch order, as PostgreSQL prints it (passed back as it came). */
interface Position {
  at: string;
  seq: string;
}

const CLAIMED = `m.id, m.account_id AS "accountId", m.to_number AS "to", m.sender, m.body, m.encoding, m.parts, m.is_test AS "isTest"`;
/** Message `m` waits for dispatch: not cancelled, and no part of it recorded. */
const WAITING = `m.status IN ('pending', 'scheduled') AND ${NO_PART}`;
/** Released batches tried per claim before moving the watermark (one fully recorded meanwhile is dropped). */
const RELEASED_PER_CLAIM = 10;

/**
 * The sweeper's batches ($1: the claim timeout in ms): not released yet, claimed longer ago than the
 * timeout and listed by no fresh lease, taken for the sweep's transaction; a batch whose outcomes are
 * being recorded is held and skipped.
 */
export const STALE_BATCHES = `SELECT b.batch_id FROM dispatch_batches b
  WHERE b.released_at IS NULL AND b.claimed_at < now() - $1 * interval '1 millisecond' AND NOT EXISTS (
    SELECT 1 FROM dispatcher_leases l WHERE b.batch_id = ANY(l.active_batches) AND l.heartbeat_at >= now() - $1 * interval '1 millisecond')
  FOR UPDATE OF b SKIP LOCKED`;

const IN_BATCH = inBatch('b');

@Injectable()
export class DispatchRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Claims up to `limit` of a send's due messages without writing a message row. Claimers and cancels of
   * one send take turns on its row (this transaction holds it until it commits): a claim first takes a
   * released batch (one whose dispatcher died), else it moves the send's watermark over the next due
   * messages in dispatch order, walking past cancelled ones. Either way the range it took is one
   * `dispatch_batches` row under `batchId`, so the sweeper can find it if its outcomes are never recorded.
   * Messages after the watermark are the only ones a cancel may touch, so a cancelled message is never
   * sent and none is claimed twice.
   */
  async claimDue(sendId: number, limit: number, batchId: string): Promise<Claim> {
    return this.dataSource.transaction(async (tx) => {
      await keyLookupsOnly(tx);
      // A statement of its own: what follows sees every cancel committed before the lock.
      const { rows: sends } = await sql<Position>(
        tx,
        `SELECT claimed_through_at::text AS at, claimed_through_seq::text AS seq FROM sends WHERE id = $1 FOR NO KEY UPDATE`,
        [sendId],
        { prepared: true },
      );
      if (sends.length === 0) return { messages: [], moved: false };
      for (let tries = 0; tries < RELEASED_PER_CLAIM; tries++) {
        const released = await this.takeReleased(sendId, batchId, tx);
        if (!released) break;
        if (released.length > 0) return { messages: released, moved: true };
      }
      return this.moveWatermark(sendId, limit, batchId, sends[0], tx);
    });
  }

  /** A released batch of the send, renamed `batchId`, with its messages still waiting; null when there is none. */
  private async takeReleased(sendId: number, batchId: string, tx: EntityManager): Promise<ClaimedMessage[] | null> {
    const { rowCount } = await sql(
      tx,
      `UPDATE dispatch_batches SET batch_id = $2, claimed_at = now(), released_at = NULL
        WHERE batch_id = (SELECT batch_id FROM dispatch_batches WHERE send_id = $1 AND released_at IS NOT NULL ORDER BY after_at, after_seq LIMIT 1 FOR UPDATE SKIP LOCKED)`,
      [sendId, batchId],
      { prepared: true },
    );
    if (rowCount === 0) return null;
    // A statement of its own: it sees every outcome recorded before the batch was taken.
    const { rows } = await sql<ClaimedMessage>(
      tx,
      `SELECT ${CLAIMED} FROM dispatch_batches b JOIN messages m ON ${IN_BATCH} WHERE b.batch_id = $1 AND ${WAITING} ORDER BY m.dispatch_at, m.seq`,
      [batchId],
      { prepared: true },
    );
    if (rows.length === 0) await sql(tx, `DELETE FROM dispatch_batches WHERE batch_id = $1`, [batchId], { prepared: true });
    return rows;
  }

  private async moveWatermark(sendId: number, limit: number, batchId: string, mark: Position, tx: EntityManager): Promise<Claim> {
    const { rows } = await sql<ClaimedMessage & { status: string }>(
      tx,
      `WITH walked AS (
         SELECT m.seq, m.dispatch_at, m.status, ${CLAIMED} FROM messages m
          WHERE m.send_id = $1 AND (m.dispatch_at, m.seq) > ($4::timestamptz, $5::bigint) AND m.dispatch_at <= now()
          ORDER BY m.dispatch_at, m.seq LIMIT $2
       ), last AS (
         SELECT dispatch_at, seq FROM walked ORDER BY dispatch_at DESC, seq DESC LIMIT 1
       ), moved AS (
         UPDATE sends SET claimed_through_at = last.dispatch_at, claimed_through_seq = last.seq FROM last WHERE sends.id = $1
       ), batch AS (
         INSERT INTO dispatch_batches (batch_id, send_id, after_at, after_seq, through_at, through_seq)
         SELECT $3::uuid, $1, $4::timestamptz, $5::bigint, last.dispatch_at, last.seq FROM last
          WHERE EXISTS (SELECT 1 FROM walked m WHERE m.status IN ('pending', 'scheduled'))
       )
       SELECT id, "accountId", "to", sender, body, encoding, parts, "isTest", status FROM walked ORDER BY dispatch_at, seq`,
      [sendId, limit, batchId, mark.at, mark.seq],
      { prepared: true },
    );
    const messages: ClaimedMessage[] = [];
    for (const { status, ...message } of rows) if (status === 'pending' || status === 'scheduled') messages.push(message);
    return { messages, moved: rows.length > 0 };
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
   * Sends with due messages that no dispatcher has claimed, oldest due first (the sweeper's view): the
   * first message after each undispatched send's watermark (one index probe per send, however many
   * messages wait), and the sends of released batches.
   */
  async sendsWithUnclaimedDue(graceMs: number, limit: number): Promise<Array<{ sendId: number; due: Date }>> {
    const { rows } = await sql<{ sendId: number; due: Date }>(
      this.dataSource,
      `SELECT "sendId", min(due) AS due FROM (
         SELECT s.id AS "sendId", n.dispatch_at AS due FROM sends s
          CROSS JOIN LATERAL (
            SELECT m.dispatch_at FROM messages m WHERE m.send_id = s.id AND (m.dispatch_at, m.seq) > (s.claimed_through_at, s.claimed_through_seq)
             ORDER BY m.dispatch_at, m.seq LIMIT 1) n
          WHERE ${UNDISPATCHED} AND n.dispatch_at <= now() - $1 * interval '1 millisecond'
         UNION ALL
         SELECT b.send_id, b.after_at FROM dispatch_batches b WHERE b.released_at IS NOT NULL AND b.released_at <= now() - $1 * interval '1 millisecond'
       ) due GROUP BY "sendId" ORDER BY due LIMIT $2`,
      [graceMs, limit],
    );
    return rows.map((r) => ({ sendId: Number(r.sendId), due: r.due }));
  }

  /**
   * Takes back the batches of dispatchers that died (no fresh lease lists them) or that ended without
   * recording every outcome, once older than the timeout: a batch with messages still waiting for their
   * outcome is released for the send's next claim, one with none is forgotten. Returns the sends to
   * dispatch again. Only the few batch rows are scanned, and each batch's own range of messages.
   */
  async releaseStaleClaims(timeoutMs: number): Promise<number[]> {
    return this.dataSource.transaction(async (tx) => {
      await keyLookupsOnly(tx);
      // A batch whose outcomes are being recorded right now is held (recordOutcomes) and skipped: its
      // outcomes are not committed yet, so its messages would look unrecorded.
      const { rows: batches } = await sql<{ batch_id: string }>(tx, STALE_BATCHES, [timeoutMs]);
      if (batches.length === 0) return [];
      // A statement of its own after the lock: it sees every outcome committed before the lock was taken.
      const { rows } = await sql<{ send_id: number }>(
        tx,
        `WITH stale AS (
           SELECT b.batch_id, b.send_id, EXISTS (SELECT 1 FROM messages m WHERE ${IN_BATCH} AND ${WAITING}) AS waiting
             FROM dispatch_batches b WHERE b.batch_id = ANY($1::uuid[])
         ), released AS (
           UPDATE dispatch_batches d SET released_at = now() FROM stale WHERE d.batch_id = stale.batch_id AND stale.waiting RETURNING d.send_id
         ), forgotten AS (
           DELETE FROM dispatch_batches d USING stale WHERE d.batch_id = stale.batch_id AND NOT stale.waiting
         )
         SELECT DISTINCT send_id FROM released`,
        [batches.map((b) => b.batch_id)],
      );
      return rows.map((r) => Number(r.send_id));
    });
  }
}
