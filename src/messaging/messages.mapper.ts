import { hundredthsToFixed, hundredthsToNumber } from '../billing/money';
import { formatUtc } from '../common/time/format';
import type { ComposedEntry } from './message-rules';
import type { MessageRow } from './messages.repository';

/** One entry of a send's `results` (interface: Message result entry), keys in the interface's order. */
export interface SendResultEntry {
  to: string;
  message: string;
  sender: string;
  custom_ref?: string;
  status: 'success' | 'blocked' | 'error';
  cost?: number;
  message_id?: string;
  conversation: 0;
  scheduled_for: string | null;
  error?: string;
}

export function toSendResultEntry(entry: ComposedEntry, messageId?: string): SendResultEntry {
  const out: SendResultEntry = { to: entry.to, message: entry.text, sender: entry.sender } as SendResultEntry;
  if (entry.customRef !== undefined) out.custom_ref = entry.customRef;
  if (entry.ok) {
    out.status = 'success';
    out.cost = hundredthsToNumber(entry.cost);
    out.message_id = messageId;
  } else {
    out.status = entry.blocked ? 'blocked' : 'error';
  }
  out.conversation = 0;
  out.scheduled_for = entry.ok && entry.scheduledAt ? formatUtc(entry.scheduledAt) : null;
  if (!entry.ok) out.error = entry.error;
  return out;
}

/** Lookup shape (GET /v1/messages with message_id or custom_ref). */
export function toLookupShape(row: MessageRow) {
  return {
    to: row.to_number,
    message: row.body,
    sender: row.sender,
    custom_ref: row.custom_ref ?? '',
    status: row.status,
    cost: hundredthsToFixed(row.cost),
    message_id: row.id,
    requested_at: formatUtc(row.created_at),
    scheduled_for: row.scheduled_for ? formatUtc(row.scheduled_for) : null,
    send_id: row.send_id,
  };
}

/** History shape (GET /v1/messages without an identifier): the same data under other names. */
export function toHistoryShape(row: MessageRow) {
  return {
    message_id: row.id,
    recipient_number: row.to_number,
    sender_id: row.sender,
    message_content: row.body,
    status: row.status,
    cost: hundredthsToFixed(row.cost),
    custom_ref: row.custom_ref ?? '',
    requested_at: formatUtc(row.created_at),
    scheduled_for: row.scheduled_for ? formatUtc(row.scheduled_for) : null,
    send_id: row.send_id,
  };
}
