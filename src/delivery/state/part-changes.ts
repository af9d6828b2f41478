import type { PartStatusChange } from '../../webhooks/webhook-events.service';

/** A part whose delivery status changed, with what its status webhook says. */
export interface PartChange extends PartStatusChange {
  /** Seconds from the part's submission to this change (receipt lag). */
  lagSeconds: number;
}

/** One submission outcome of a message part, as the dispatcher reports it. */
export interface PartOutcome {
  /** The batch whose claim this part's message was sent under. */
  batchId: string;
  /** The message's account (its part carries it, so receipts find their account without reading the message). */
  accountId: number;
  messageId: string;
  partNumber: number;
  totalParts: number;
  /** The carrier that answered: its SMSC id is unique only there. */
  carrierId: number;
  smscId: string | null;
  error: string | null;
  /** The SMSC's command_status of a refusal (carrier_error); null or absent otherwise. */
  errorCode?: number | null;
  /** Simulated carrier only: when its receipt is due. */
  receiptDueAt: Date | null;
}

/** A PartChange from a part `p` (message_parts), which carries its message's account. */
export const PART_CHANGE = `p.account_id AS "accountId", p.message_id AS "messageId", p.part_number AS "partNumber", p.total_parts AS "totalParts", p.status,
  (extract(epoch FROM p.receipt_at) * 1000)::float8 AS "atMs", extract(epoch FROM now() - p.submitted_at)::float8 AS "lagSeconds"`;

/**
 * One outcome per part, the last one given. A recording carries the outcomes of every batch its process
 * has out, in the order the carrier answered them, so a message taken back and sent again under a later
 * claim can stand in it twice; the later answer wins, and the group does not fail as a whole (one
 * INSERT … ON CONFLICT DO UPDATE cannot touch a row twice).
 */
export function latestPerPart(outcomes: PartOutcome[]): PartOutcome[] {
  const byPart = new Map<string, PartOutcome>();
  for (const o of outcomes) byPart.set(`${o.messageId}/${o.partNumber}`, o);
  return byPart.size === outcomes.length ? outcomes : [...byPart.values()];
}
