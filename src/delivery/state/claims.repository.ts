import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { keyLookupsOnly, sql } from '../../database/sql';
import { inBatch, WAITING } from './dispatch-order';

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
/** Released batches tried per claim before moving the watermark (one fully recorded meanwhile is dropped). */
const RELEASED_PER_CLAIM = 10;

/** The claim's first statement ($1 send): its watermark, holding the send row until the claim commits. */
export const HOLD_SEND = `SELECT claimed_through_at::text AS at, claimed_through_seq::text AS seq FROM sends WHERE id = $1 FOR NO KEY UPDATE`;

/** Renames the send's oldest released batch ($1 send) to the claim's batch ($2) and takes it. */
export const TAKE_RELEASED_BATCH = `UPDATE dispatch_batches SET batch_id = $2, claimed_at = now(), released_at = NULL
  WHERE batch_id = (SELECT batch_id FROM dispatch_batches WHERE send_id = $1 AND released_at IS NOT NULL ORDER BY after_at, after_seq LIMIT 1 FOR UPDATE SKIP LOCKED)`;

/** The messages of batch $1 still waiting for their outcome, in dispatch order. */
export const BATCH_WAITING = `SELECT ${CLAIMED} FROM dispatch_batches b JOIN messages m ON ${inBatch('b')} WHERE b.batch_id = $1 AND ${WAITING} ORDER BY m.dispatch_at, m.seq`;

export const FORGET_BATCH = `DELETE FROM dispatch_batches WHERE batch_id = $1`;

/**
 * Moves send $1's watermark over its next due messages (at most $2, after position ($4, $5)), records the
 * range as batch $3 (unless every one of them was cancelled) and answers them, cancelled ones with their
 * status so the caller skips them.
 */
export const MOVE_WATERMARK = `WITH walked AS (
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
  SELECT id, "accountId", "to", sender, body, encoding, parts, "isTest", status FROM walked ORDER BY dispatch_at, seq`;

/**
 * Claims: a dispatcher takes a send's due messages in batches without writing a message row. Claimers and
 * cancels of one send take turns on its row (a claim's transaction holds it until it commits).
 */
@Injectable()
export class ClaimsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Claims up to `limit` of a send's due messages: first a released batch (one whose dispatcher died),
   * else the next due messages in dispatch order after the send's watermark, walking past cancelled ones.
   * Either way the range it took is one `dispatch_batches` row under `batchId`, so the sweeper can find it
   * if its outcomes are never recorded. Messages after the watermark are the only ones a cancel may touch,
   * so a cancelled message is never sent and none is claimed twice.
   */
  async claimDue(sendId: number, limit: number, batchId: string): Promise<Claim> {
    return this.dataSource.transaction(async (tx) => {
      await keyLookupsOnly(tx);
      // A statement of its own: what follows sees every cancel committed before the lock.
      const { rows: sends } = await sql<Position>(tx, HOLD_SEND, [sendId], { prepared: true });
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
    const { rowCount } = await sql(tx, TAKE_RELEASED_BATCH, [sendId, batchId], { prepared: true });
    if (rowCount === 0) return null;
    // A statement of its own: it sees every outcome recorded before the batch was taken.
    const { rows } = await sql<ClaimedMessage>(tx, BATCH_WAITING, [batchId], { prepared: true });
    if (rows.length === 0) await sql(tx, FORGET_BATCH, [batchId], { prepared: true });
    return rows;
  }

  private async moveWatermark(sendId: number, limit: number, batchId: string, mark: Position, tx: EntityManager): Promise<Claim> {
    const { rows } = await sql<ClaimedMessage & { status: string }>(tx, MOVE_WATERMARK, [sendId, limit, batchId, mark.at, mark.seq], { prepared: true });
    const messages: ClaimedMessage[] = [];
    for (const { status, ...message } of rows) if (status === 'pending' || status === 'scheduled') messages.push(message);
    return { messages, moved: rows.length > 0 };
  }

  /** Every claim of the batch has its outcome recorded: nothing of it is left for the sweeper. */
  async batchRecorded(batchId: string): Promise<void> {
    await sql(this.dataSource, FORGET_BATCH, [batchId]);
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
}
