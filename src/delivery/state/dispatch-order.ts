/**
 * SQL over a send's dispatch order, `(dispatch_at, seq)`, for a message row `m`: what a claim has taken
 * (up to its send's watermark, as ranges of batch rows) and what it has not. The claim, the cancels, the
 * sweeper, the backlog and the status reads must agree on it to the message, so they all build their
 * conditions from here; this folder (src/delivery/state) is the only code that names the watermark columns
 * or dispatch_batches (a unit test keeps it so).
 */

/** Message `m` lies after its send `send`'s watermark: no claim has taken it. */
export const unclaimed = (send: string): string => `(m.dispatch_at, m.seq) > (${send}.claimed_through_at, ${send}.claimed_through_seq)`;

/** Message `m` is in batch row `batch`'s range of its send's dispatch order. */
export const inBatch = (batch: string): string =>
  `m.send_id = ${batch}.send_id AND (m.dispatch_at, m.seq) > (${batch}.after_at, ${batch}.after_seq) AND (m.dispatch_at, m.seq) <= (${batch}.through_at, ${batch}.through_seq)`;

/** The predicate of sends_undispatched_idx: the send's watermark is before its last message. */
export const UNDISPATCHED_INDEX_WHERE = 'last_seq IS NOT NULL AND (claimed_through_at, claimed_through_seq) < (last_at, last_seq)';

/** Send `s` has messages no claim has taken (its watermark is before its last message; sends_undispatched_idx). */
export const UNDISPATCHED = `s.last_seq IS NOT NULL AND (s.claimed_through_at, s.claimed_through_seq) < (s.last_at, s.last_seq)`;

/**
 * For each send `s` of the query, `n.dispatch_at`: when its first message after the watermark is due (one
 * probe of messages_send_order_idx per send, however many messages wait).
 */
export const FIRST_UNCLAIMED = `CROSS JOIN LATERAL (
  SELECT m.dispatch_at FROM messages m WHERE m.send_id = s.id AND ${unclaimed('s')} ORDER BY m.dispatch_at, m.seq LIMIT 1) n`;

/** No part of message `m` is recorded (a dispatcher that died may still have submitted it). */
export const NO_PART = `NOT EXISTS (SELECT 1 FROM message_parts p WHERE p.message_id = m.id)`;

/** Message `m` waits for dispatch: not cancelled, and no part of it recorded. */
export const WAITING = `m.status IN ('pending', 'scheduled') AND ${NO_PART}`;
