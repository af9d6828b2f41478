import { Injectable } from '@nestjs/common';
import { formatUtc } from '../common/time/format';
import type { PartChange } from '../dispatch/dispatch.repository';
import { WebhooksRepository } from './webhooks.repository';
import { WebhookQueue } from '../queues/webhook-queue';
import { Tx } from '../database/unit-of-work';

/** A message cancelled before it was sent: every one of its parts gets a `cancelled` status webhook. */
export interface CancelledForWebhook {
  id: string;
  to_number: string;
  sender: string;
  body: string;
  custom_ref: string | null;
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
}

/**
 * Creates webhook events inside the transaction that made the change they report, so an event exists
 * exactly when its change does. Bodies are serialised here, once: every attempt sends these bytes, and
 * each is self-contained (message id, part, status, time), so receivers cope with any order.
 */
@Injectable()
export class WebhookEventsService {
  constructor(
    private readonly repo: WebhooksRepository,
    private readonly queue: WebhookQueue,
  ) {}

  /** Delivery receipts: one event per part that became delivered or failed. */
  async partsChanged(changes: PartChange[], m: Tx): Promise<number> {
    const wanted = await this.repo.accountsWithUrl([...new Set(changes.map((c) => c.account_id))], 'status', m);
    const events = changes
      .filter((c) => wanted.has(c.account_id))
      .map((c) => ({
        accountId: c.account_id,
        kind: 'status' as const,
        body: receiptBody(c.to_number, c.sender, c.body, c.custom_ref, c.status, c.message_id, c.receipt_at, c.part_number, c.total_parts),
      }));
    return this.repo.insertEvents(events, m);
  }

  /** Cancelled scheduled (or opted-out pending) messages: one `cancelled` event per part. */
  async messagesCancelled(accountId: number, cancelled: CancelledForWebhook[], at: Date, m: Tx): Promise<number> {
    if (cancelled.length === 0 || !(await this.repo.accountsWithUrl([accountId], 'status', m)).has(accountId)) return 0;
    const events = cancelled.flatMap((c) =>
      Array.from({ length: c.parts }, (_, i) => ({
        accountId,
        kind: 'status' as const,
        body: receiptBody(c.to_number, c.sender, c.body, c.custom_ref, 'cancelled', c.id, at, i + 1, c.parts),
      })),
    );
    return this.repo.insertEvents(events, m);
  }

  async inboundReceived(accountId: number, inbound: InboundForWebhook, m: Tx): Promise<number> {
    if (!(await this.repo.accountsWithUrl([accountId], 'inbound', m)).has(accountId)) return 0;
    const body = JSON.stringify({
      to: inbound.to,
      sender: inbound.sender,
      message: inbound.message,
      received_at: formatUtc(inbound.receivedAt),
      type: inbound.type,
      original_message_id: inbound.originalMessageId ?? '',
      original_custom_ref: inbound.originalCustomRef ?? '',
    });
    return this.repo.insertEvents([{ accountId, kind: 'inbound', body }], m);
  }

  /** After the creating transaction commits. */
  async deliverSoon(created: number): Promise<void> {
    if (created > 0) await this.queue.wake();
  }
}

/** Delivery receipt body (supplement: Webhooks): one per part, no `type` field, custom_ref '' when none. */
function receiptBody(to: string, sender: string, message: string, customRef: string | null, status: string, messageId: string, at: Date, part: number, total: number): string {
  return JSON.stringify({ to, sender, message, custom_ref: customRef ?? '', status, message_id: messageId, received_at: formatUtc(at), part_number: part, total_parts: total });
}
