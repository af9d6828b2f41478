import { Injectable } from '@nestjs/common';
import { sql } from '../../database/sql';
import type { Tx } from '../../database/unit-of-work';
import type { CancelledMessage } from '../../webhooks/webhook-events.service';
import { inBatch, NO_PART, unclaimed, UNDISPATCHED } from './dispatch-order';
import { IN_RELEASED_BATCH } from './message-status';

/** A cancelled message: its refund and what its `cancelled` webhooks say. */
export interface CancelledMessageRecord extends CancelledMessage {
  cost: number;
}

/** Which of an account's messages a cancel asks for. */
export type CancelMatch = { messageId: string } | { sendId: number } | { customRef: string };

const CANCELLED = `m.id, m.cost, m.parts, m.to_number AS "to", m.sender, m.body, m.custom_ref AS "customRef"`;

/** Candidates ($1 account, $2 number): the recipient's messages waiting after their send's watermark or in a released batch. */
export const RECIPIENT_CANDIDATES = (() => {
  const matching = `m.to_number = $2 AND m.status IN ('pending', 'scheduled')`;
  return `SELECT m.id, m.send_id FROM sends s JOIN messages m ON m.send_id = s.id AND ${unclaimed('s')} WHERE s.account_id = $1 AND ${UNDISPATCHED} AND ${matching}
  UNION
  SELECT m.id, m.send_id FROM dispatch_batches b JOIN sends s ON s.id = b.send_id AND s.account_id = $1 JOIN messages m ON ${inBatch('b')}
   WHERE b.released_at IS NOT NULL AND ${matching} AND ${NO_PART}`;
})();

/** Candidates ($1 account, $2 value of `column`): scheduled messages after their send's watermark or in a released batch. */
export const scheduledCandidates = (column: 'id' | 'send_id' | 'custom_ref'): string => {
  const matching = `m.account_id = $1 AND m.${column} = $2 AND m.status = 'scheduled'`;
  return `SELECT m.id, m.send_id FROM messages m JOIN sends s ON s.id = m.send_id AND ${UNDISPATCHED} WHERE ${matching} AND ${unclaimed('s')}
  UNION
  SELECT m.id, m.send_id FROM messages m JOIN dispatch_batches b ON b.send_id = m.send_id AND b.released_at IS NOT NULL AND ${inBatch('b')}
   WHERE ${matching} AND ${NO_PART}`;
};

/** Under the sends' and the candidates' locks: cancels the candidates $1 that no dispatcher holds. */
export const CANCEL_UNCLAIMED = `UPDATE messages m SET status = 'cancelled', updated_at = now()
    FROM sends s
   WHERE m.id = ANY($1::uuid[]) AND s.id = m.send_id AND m.status IN ('pending', 'scheduled')
     AND (${unclaimed('s')} OR (${IN_RELEASED_BATCH} AND ${NO_PART}))
   RETURNING ${CANCELLED}`;

/** Cancels of messages no dispatcher holds, in the caller's transaction: the claim protocol's side of a cancel. */
@Injectable()
export class CancelsRepository {
  /** Cancels a recipient's messages not yet taken by a dispatcher (an opt-out). */
  async cancelUnsentToRecipient(accountId: number, number: string, tx: Tx): Promise<CancelledMessageRecord[]> {
    return this.cancelUnclaimed(RECIPIENT_CANDIDATES, [accountId, number], tx);
  }

  /** Cancels the matching messages that are still scheduled and that no dispatcher has taken. */
  async cancelScheduled(accountId: number, match: CancelMatch, tx: Tx): Promise<CancelledMessageRecord[]> {
    const [column, value] =
      'messageId' in match ? (['id', match.messageId] as const) : 'sendId' in match ? (['send_id', match.sendId] as const) : (['custom_ref', match.customRef] as const);
    return this.cancelUnclaimed(scheduledCandidates(column), [accountId, value], tx);
  }

  /**
   * Cancels the candidates `find` lists (id and send_id of messages no dispatcher holds: after their send's
   * watermark, or in a batch taken back from a dispatcher that died), so that a dispatch racing for one of
   * them cannot also win: the candidates are found without locks, then their sends' rows are held (a claim
   * of those sends, which moves the watermark or takes a released batch, waits until this transaction
   * ends; one that went first shows in what follows), then the candidates' rows in id order (two cancels
   * of the same messages queue instead of deadlocking), then one conditional UPDATE, a statement of its
   * own, takes those still not held by a dispatcher. A message becomes a candidate only by being stored: a
   * send committed after the candidates were found (one that checked the number's opt-out before it was
   * recorded) is not seen here, as before this cancel had candidates.
   */
  private async cancelUnclaimed(find: string, params: unknown[], tx: Tx): Promise<CancelledMessageRecord[]> {
    const { rows: candidates } = await sql<{ id: string; send_id: string }>(tx, find, params);
    if (candidates.length === 0) return [];
    const sends = [...new Set(candidates.map((c) => String(c.send_id)))];
    const ids = candidates.map((c) => c.id);
    await sql(tx, `SELECT 1 FROM sends WHERE id = ANY($1::bigint[]) ORDER BY id FOR SHARE`, [sends]);
    await sql(tx, `SELECT 1 FROM messages WHERE id = ANY($1::uuid[]) ORDER BY id FOR NO KEY UPDATE`, [ids]);
    const { rows } = await sql<CancelledMessageRecord>(tx, CANCEL_UNCLAIMED, [ids]);
    return rows;
  }
}
