import { Injectable } from '@nestjs/common';
import { AccountsService } from '../accounts/accounts.service';
import { CreditsService } from '../billing/credits.service';
import { hundredthsToNumber } from '../billing/money';
import { DomainError } from '../common/errors/domain-error';
import { classifyDependencyFailure } from '../common/errors/dependency-errors';
import { Condition, failure, failureBecause } from '../common/errors/error-catalogue';
import { isUuid } from './message-lookup.service';
import { Clock } from '../common/time/clock';
import { WebhookEventsService } from '../webhooks/webhook-events.service';
import { CancelledRow, MessagesRepository } from './messages.repository';
import { Tx, UnitOfWork } from '../database/unit-of-work';

/** What a cancellation did: messages cancelled, hundredths refunded, status webhooks created. */
export interface CancelOutcome {
  count: number;
  refunded: number;
  webhookEvents: number;
}

export interface CancelRequest {
  message_id?: string;
  send_id?: number;
  custom_ref?: string;
}

/**
 * DELETE /v1/messages: cancels scheduled messages by message_id, send_id or custom_ref (first supplied
 * wins, no fall-through). The status change and the refund are one transaction: if any step fails,
 * nothing is cancelled and nothing refunded, and the interface's 500 text is answered.
 */
@Injectable()
export class CancelMessagesService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly accounts: AccountsService,
    private readonly messages: MessagesRepository,
    private readonly credits: CreditsService,
    private readonly webhooks: WebhookEventsService,
    private readonly clock: Clock,
  ) {}

  async cancel(accountId: number, request: CancelRequest) {
    // '' is no identifier, as for GET.
    if (request.message_id) return this.byMessageId(accountId, request.message_id);
    if (request.send_id !== undefined) return this.bySendId(accountId, request.send_id);
    if (request.custom_ref) return this.byCustomRef(accountId, request.custom_ref);
    throw failure('cancelIdentifierRequired');
  }

  /**
   * An opt-out's effect on sending: the number's scheduled and pending messages that no dispatcher has
   * taken yet are cancelled and refunded, inside the caller's transaction.
   */
  async cancelForRecipient(accountId: number, number: string, m: Tx): Promise<CancelOutcome> {
    const cancelled = await this.messages.cancelUnsentToRecipient(accountId, number, m);
    return this.refundAndNotify(accountId, cancelled, 'recipient opted out', `stop:${number}`, m);
  }

  private async byMessageId(accountId: number, messageId: string) {
    if (!isUuid(messageId)) throw failure('messageNotFound');
    const id = messageId.toLowerCase();
    const { refunded } = await this.inTransaction('failedToCancelMessage', async (m) => {
      const cancelled = await this.cancelAndRefund(accountId, { messageId: id }, `message:${id}`, m);
      if (cancelled.count > 0) return cancelled;
      const status = await this.messages.statusOf(accountId, id, m);
      if (status === null) throw failure('messageNotFound');
      throw failure('messageNotScheduled');
    });
    return { status: 'complete' as const, message_id: id, cancelled: true, credits_refunded: hundredthsToNumber(refunded) };
  }

  private async bySendId(accountId: number, sendId: number) {
    const { count, refunded } = await this.inTransaction('failedToCancelSend', async (m) => {
      if (!(await this.messages.sendExists(accountId, sendId, m))) throw failure('sendNotFound');
      const result = await this.cancelAndRefund(accountId, { sendId }, `send:${sendId}`, m);
      if (result.count === 0) throw failure('noScheduledForSend');
      return result;
    });
    return { status: 'complete' as const, send_id: sendId, cancelled_count: count, credits_refunded: hundredthsToNumber(refunded) };
  }

  private async byCustomRef(accountId: number, customRef: string) {
    const { count, refunded } = await this.inTransaction('failedToCancelMessages', async (m) => {
      const result = await this.cancelAndRefund(accountId, { customRef }, `custom_ref:${customRef}`, m);
      if (result.count === 0) throw failure('noScheduledForCustomRef');
      return result;
    });
    return { status: 'complete' as const, custom_ref: customRef, cancelled_count: count, credits_refunded: hundredthsToNumber(refunded) };
  }

  private async cancelAndRefund(
    accountId: number,
    match: Parameters<MessagesRepository['cancelScheduled']>[1],
    reference: string,
    m: Tx,
  ): Promise<CancelOutcome> {
    const cancelled = await this.messages.cancelScheduled(accountId, match, m);
    return this.refundAndNotify(accountId, cancelled, 'cancelled scheduled messages', reference, m);
  }

  /** Refund (live accounts) and one `cancelled` status webhook per part, in the cancelling transaction. */
  private async refundAndNotify(accountId: number, cancelled: CancelledRow[], reason: string, reference: string, m: Tx): Promise<CancelOutcome> {
    const refunded = cancelled.reduce((sum, c) => sum + c.cost, 0);
    if (cancelled.length === 0) return { count: 0, refunded: 0, webhookEvents: 0 };
    // Test accounts were never charged, so nothing moves; the amount is still reported.
    const { isTest } = await this.accounts.get(accountId);
    if (!isTest && refunded > 0) await this.credits.refund(accountId, refunded, reason, reference, m);
    const webhookEvents = await this.webhooks.messagesCancelled(accountId, cancelled, this.clock.now(), m);
    return { count: cancelled.length, refunded, webhookEvents };
  }

  /** Runs one cancellation; after it commits, the webhooks it created are sent. */
  private async inTransaction(failed: Condition & `failedToCancel${string}`, work: (m: Tx) => Promise<CancelOutcome>): Promise<CancelOutcome> {
    let outcome: CancelOutcome;
    try {
      outcome = await this.uow.run(work);
    } catch (err) {
      if (err instanceof DomainError || classifyDependencyFailure(err)) throw err;
      throw failureBecause(err, failed);
    }
    await this.webhooks.deliverSoon(outcome.webhookEvents);
    return outcome;
  }
}
