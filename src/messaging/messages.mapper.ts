import { hundredthsToFixed, hundredthsToNumber } from '../billing/money';
import type { PageResult } from '../common/http/pagination';
import { formatUtc } from '../common/time/format';
import { carrierError } from '../smpp/carrier-error';
import type { ComposedEntry } from './message-rules';
import type { CancelCommand } from './cancel-messages.service';
import type { CancelMessagesDto } from './dto/cancel-messages.dto';
import type { ListSendDto } from './dto/list-send.dto';
import type { SendMessagesDto } from './dto/send-messages.dto';
import type { SimpleSendQuery } from './dto/simple-send.dto';
import type { ListSendCommand } from './list-send.service';
import type { MessageRow } from './messages.repository';
import type { SendBatchCommand } from './send-batch.service';

/** Wire requests (snake_case, validated by their DTOs) to the services' commands. */
export function toSendBatchCommand(dto: SendMessagesDto): SendBatchCommand {
  return {
    messages: dto.messages,
    enableUnicode: dto.enable_unicode,
    maxParts: dto.max_parts,
    shortenUrls: dto.shorten_urls,
    ignoreUnsubscribes: dto.ignore_unsubscribes,
    respectQuietHours: dto.respect_quiet_hours,
  };
}

/** GET /simple/send-sms: its one message goes through exactly the checks of a batch entry. */
export function toSimpleSendCommand(query: SimpleSendQuery): SendBatchCommand {
  const { to, message, sender, custom_ref } = query;
  return { messages: [{ to, message, sender, custom_ref }] };
}

export function toListSendCommand(dto: ListSendDto): ListSendCommand {
  return {
    listId: dto.list_id,
    sender: dto.sender,
    message: dto.message,
    customRef: dto.custom_ref,
    shortenUrls: dto.shorten_urls,
    scheduledFor: dto.scheduled_for,
    staggerMinutes: dto.stagger_minutes,
    maxParts: dto.max_parts,
    ignoreUnsubscribes: dto.ignore_unsubscribes,
  };
}

export function toCancelCommand(dto: CancelMessagesDto): CancelCommand {
  return { messageId: dto.message_id, sendId: dto.send_id, customRef: dto.custom_ref };
}

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
    // An extension, present only on a failed message a carrier refused, so other lookups are as the interface shows.
    ...(row.status === 'failed' && row.error_code !== undefined && row.error_code !== null ? { carrier_error: carrierError(row.error_code) } : {}),
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

export interface CancelByMessageResult {
  status: 'complete';
  message_id: string;
  cancelled: true;
  credits_refunded: number;
}

export interface CancelBySendResult {
  status: 'complete';
  send_id: number;
  cancelled_count: number;
  credits_refunded: number;
}

export interface CancelByCustomRefResult {
  status: 'complete';
  custom_ref: string;
  cancelled_count: number;
  credits_refunded: number;
}

export function toCancelByMessageResult(messageId: string, outcome: { refunded: number }): CancelByMessageResult {
  return { status: 'complete', message_id: messageId, cancelled: true, credits_refunded: hundredthsToNumber(outcome.refunded) };
}

export function toCancelBySendResult(sendId: number, outcome: { count: number; refunded: number }): CancelBySendResult {
  return { status: 'complete', send_id: sendId, cancelled_count: outcome.count, credits_refunded: hundredthsToNumber(outcome.refunded) };
}

export function toCancelByCustomRefResult(customRef: string, outcome: { count: number; refunded: number }): CancelByCustomRefResult {
  return { status: 'complete', custom_ref: customRef, cancelled_count: outcome.count, credits_refunded: hundredthsToNumber(outcome.refunded) };
}

export interface SendBatchResult {
  status: 'complete';
  send_id: number;
  ignore_unsubscribes: boolean;
  total_cost: number;
  results: SendResultEntry[];
}

/** A batch's answer: one result per entry, in request order; ids[i] is entry i's new message id. */
export function toSendBatchResult(sendId: number, ignoreUnsubscribes: boolean, totalCost: number, entries: ComposedEntry[], ids: Array<string | undefined>): SendBatchResult {
  return {
    status: 'complete',
    send_id: sendId,
    ignore_unsubscribes: ignoreUnsubscribes,
    total_cost: hundredthsToNumber(totalCost),
    results: entries.map((entry, i) => toSendResultEntry(entry, ids[i])),
  };
}

export interface ListSendResult {
  status: 'complete';
  send_id: number;
  list_id: number;
  total_recipients: number;
  total_blocked_unsubscribed: number;
  total_skipped_too_long: number;
  total_cost: number;
  scheduled_for: string | null;
  stagger_minutes: number | null;
  send_status: 'queued' | 'scheduled';
}

export function toListSendResult(
  sendId: number,
  listId: number,
  counts: { recipients: number; blockedUnsubscribed: number; skippedTooLong: number; totalCost: number },
  scheduledFor: Date | null,
  staggerMinutes: number | null,
): ListSendResult {
  return {
    status: 'complete',
    send_id: sendId,
    list_id: listId,
    total_recipients: counts.recipients,
    total_blocked_unsubscribed: counts.blockedUnsubscribed,
    total_skipped_too_long: counts.skippedTooLong,
    total_cost: hundredthsToNumber(counts.totalCost),
    scheduled_for: scheduledFor ? formatUtc(scheduledFor) : null,
    stagger_minutes: staggerMinutes,
    send_status: scheduledFor ? 'scheduled' : 'queued',
  };
}

export interface LookupResult {
  status: 'complete';
  results: Array<ReturnType<typeof toLookupShape>>;
}

/** A page of history and where the next one starts (null when this one is not full). */
export type HistoryPage = PageResult<ReturnType<typeof toHistoryShape>> & { next_cursor: string | null };

export const toLookupResult = (rows: MessageRow[]): LookupResult => ({ status: 'complete', results: rows.map(toLookupShape) });
