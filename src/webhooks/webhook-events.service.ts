import { Injectable } from '@nestjs/common';
import { formatUtc } from '../common/time/format';
import { carrierError } from '../smpp/carrier-error';
import { Tx } from '../database/unit-of-work';
import { WebhookQueue } from '../queues/webhook-queue';
import { MessageOfChange, NewWebhookEvent, ReceiptEvent, WebhooksRepository } from './webhooks.repository';

/** A message part whose delivery status changed (a receipt, or a refusal at submission). */
export interface PartStatusChange {
  accountId: number;
  messageId: string;
  partNumber: number;
  totalParts: number;
  status: 'delivered' | 'failed';
  /** When the receipt said the part reached its state, in epoch milliseconds (a Date only for the events written). */
  atMs: number;
  /** The SMSC's command_status when it refused the part at submission (shown as carrier_error). */
  errorCode?: number | null;
}

/** A message cancelled before it was sent: every one of its parts gets a `cancelled` status webhook. */
export interface CancelledMessage {
  id: string;
  to: string;
  sender: string;
  body: string;
  customRef: string | null;
  parts: number;
}

export interface InboundForWebhook {
  /** The account's number that received it. */
  to: string;
  /** The mobile that replied. */
  sender: string;
  message: string;
  receivedAt: Date;
  type: 'inbound' | 'unsubscribe';
  originalMessageId: string | null;
  originalCustomRef: string | null;
  /** The keyword the reply matched: an account rule (its id) or a built-in keyword (id null). */
  keywordRule?: { ruleId: number | null; keyword: string } | null;
}

/**
 * Creates webhook events inside the transaction that made the change they report, so an event exists
 * exactly when its change does, and wakes delivery once that transaction commits. Bodies are serialised
 * here, once: every attempt sends these bytes, and each is self-contained (message id, part, status,
 * time), so receivers cope with any order.
 */
@Injectable()
export class WebhookEventsService {
  constructor(
    private readonly repo: WebhooksRepository,
    private readonly queue: WebhookQueue,
  ) {}

  /**
   * Delivery receipts: one event per part that became delivered or failed, for accounts with a status
   * URL. Most receipts are for accounts without one. The bodies are built in PostgreSQL from the
   * messages' rows, in the one statement that stores them (insertReceiptEvents), as receiptBody writes them.
   */
  async partsChanged(changes: readonly PartStatusChange[], tx: Tx): Promise<number> {
    if (changes.length === 0) return 0;
    const wanted = await this.repo.accountsWithUrl([...new Set(changes.map((c) => c.accountId))], 'status', tx);
    const receipts = changes.filter((c) => wanted.has(c.accountId)).map(receiptEvent);
    const created = await this.repo.insertReceiptEvents(receipts, tx);
    if (created > 0) tx.afterCommit(() => this.queue.wake());
    return created;
  }

  /** Cancelled scheduled (or opted-out pending) messages: one `cancelled` event per part. */
  async messagesCancelled(accountId: number, cancelled: readonly CancelledMessage[], at: Date, tx: Tx): Promise<number> {
    if (cancelled.length === 0 || !(await this.repo.accountsWithUrl([accountId], 'status', tx)).has(accountId)) return 0;
    const events = cancelled.flatMap((c) =>
      Array.from({ length: c.parts }, (_, i) => ({ accountId, kind: 'status' as const, body: receiptBody(c, 'cancelled', c.id, at, i + 1, c.parts) })),
    );
    return this.create(events, tx);
  }

  async inboundReceived(accountId: number, inbound: InboundForWebhook, tx: Tx): Promise<number> {
    if (!(await this.repo.accountsWithUrl([accountId], 'inbound', tx)).has(accountId)) return 0;
    return this.create([{ accountId, kind: 'inbound', body: inboundBody(inbound) }], tx);
  }

  private async create(events: NewWebhookEvent[], tx: Tx): Promise<number> {
    const created = await this.repo.insertEvents(events, tx);
    if (created > 0) tx.afterCommit(() => this.queue.wake());
    return created;
  }
}

/** A receipt's event as insertReceiptEvents builds its body: the fields receiptBody takes from the change. */
function receiptEvent(c: PartStatusChange): ReceiptEvent {
  return {
    accountId: c.accountId,
    messageId: c.messageId,
    status: c.status,
    receivedAt: formatUtc(new Date(c.atMs)),
    partNumber: c.partNumber,
    totalParts: c.totalParts,
    extension: c.errorCode !== undefined && c.errorCode !== null ? `,"carrier_error":${JSON.stringify(carrierError(c.errorCode))}` : '',
  };
}

/** Delivery receipt body (supplement: Webhooks): one per part, no `type` field, custom_ref '' when none. */
export function receiptBody(m: MessageOfChange, status: string, messageId: string, at: Date, part: number, total: number, errorCode?: number | null): string {
  return JSON.stringify({
    to: m.to,
    sender: m.sender,
    message: m.body,
    custom_ref: m.customRef ?? '',
    status,
    message_id: messageId,
    received_at: formatUtc(at),
    part_number: part,
    total_parts: total,
    // An extension, present only on a part the carrier refused at submission, so other payloads are as the interface shows.
    ...(errorCode !== undefined && errorCode !== null ? { carrier_error: carrierError(errorCode) } : {}),
  });
}

function inboundBody(inbound: InboundForWebhook): string {
  return JSON.stringify({
    to: inbound.to,
    sender: inbound.sender,
    message: inbound.message,
    received_at: formatUtc(inbound.receivedAt),
    type: inbound.type,
    original_message_id: inbound.originalMessageId ?? '',
    original_custom_ref: inbound.originalCustomRef ?? '',
    // An extension, present only when a keyword matched, so payloads without one are as the interface shows.
    ...(inbound.keywordRule ? { keyword_rule: { rule_id: inbound.keywordRule.ruleId, keyword: inbound.keywordRule.keyword } } : {}),
  });
}
