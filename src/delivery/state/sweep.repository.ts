import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { keyLookupsOnly, sql } from '../../database/sql';
import { FIRST_UNCLAIMED, inBatch, UNDISPATCHED, WAITING } from './dispatch-order';

/**
 * The sweeper's batches ($1: the claim timeout in ms): not released yet, claimed longer ago than the
 * timeout and listed by no fresh lease, taken for the sweep's transaction; a batch whose outcomes are
 * being recorded is held and skipped.
 */
export const STALE_BATCHES = `SELECT b.batch_id FROM dispatch_batches b
  WHERE b.released_at IS NULL AND b.claimed_at < now() - $1 * interval '1 millisecond' AND NOT EXISTS (
    SELECT 1 FROM dispatcher_leases l WHERE b.batch_id = ANY(l.active_batches) AND l.heartbeat_at >= now() - $1 * interval '1 millisecond')
  FOR UPDATE OF b SKIP LOCKED`;

/** Of the stale batches $1, releases those with messages still waiting and forgets the rest; answers the released ones' sends. */
export const RELEASE_STALE = `WITH stale AS (
    SELECT b.batch_id, b.send_id, EXISTS (SELECT 1 FROM messages m WHERE ${inBatch('b')} AND ${WAITING}) AS waiting
      FROM dispatch_batches b WHERE b.batch_id = ANY($1::uuid[])
  ), released AS (
    UPDATE dispatch_batches d SET released_at = now() FROM stale WHERE d.batch_id = stale.batch_id AND stale.waiting RETURNING d.send_id
  ), forgotten AS (
    DELETE FROM dispatch_batches d USING stale WHERE d.batch_id = stale.batch_id AND NOT stale.waiting
  )
  SELECT DISTINCT send_id FROM released`;

/** Sends with messages due $1 ms ago or more that no claim has taken, oldest due first ($2 at most). */
export const SENDS_WITH_UNCLAIMED_DUE = `SELECT "sendId", min(due) AS due FROM (
    SELECT s.id AS "sendId", n.dispatch_at AS due FROM sends s ${FIRST_UNCLAIMED}
     WHERE ${UNDISPATCHED} AND n.dispatch_at <= now() - $1 * interval '1 millisecond'
    UNION ALL
    SELECT b.send_id, b.after_at FROM dispatch_batches b WHERE b.released_at IS NOT NULL AND b.released_at <= now() - $1 * interval '1 millisecond'
  ) due GROUP BY "sendId" ORDER BY due LIMIT $2`;

/** What the sweeper reads and takes back: abandoned batches, and due messages no job is dispatching. */
@Injectable()
export class SweepRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Sends with due messages that no dispatcher has claimed, oldest due first: the first message after each
   * undispatched send's watermark (one index probe per send, however many messages wait), and the sends of
   * released batches.
   */
  async sendsWithUnclaimedDue(graceMs: number, limit: number): Promise<Array<{ sendId: number; due: Date }>> {
    const { rows } = await sql<{ sendId: number; due: Date }>(this.dataSource, SENDS_WITH_UNCLAIMED_DUE, [graceMs, limit]);
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
      const { rows } = await sql<{ send_id: number }>(tx, RELEASE_STALE, [batches.map((b) => b.batch_id)]);
      return rows.map((r) => Number(r.send_id));
    });
  }
}
