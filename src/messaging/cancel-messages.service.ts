import { Injectable } from '@nestjs/common';
import { AccountsService } from '../accounts/accounts.service';
import { CreditsService } from '../billing/credits.service';
import { DomainError } from '../common/errors/domain-error';
import { classifyDependencyFailure } from '../common/errors/dependency-errors';
import { Condition, failure, failureBecause } from '../common/errors/error-catalogue';
import { Clock } from '../common/time/clock';
import { Tx, UnitOfWork } from '../database/unit-of-work';
import { WebhookEventsService } from '../webhooks/webhook-events.service';
import { isUuid } from '../common/validation/uuid';
import { CancelByCustomRefResult, CancelByMessageResult, CancelBySendResult, toCancelByCustomRefResult, toCancelByMessageResult, toCancelBySendResult } from './messages.mapper';
import type { CancelledMessageRecord, CancelMatch } from '../delivery/state/cancels.repository';
import { UnclaimedCancellation } from '../delivery/state/unclaimed-cancellation.service';
import { MessagesRepository } from './messages.repository';

/** What a cancellation did: messages cancelled and hundredths refunded. */
export interface CancelOutcome {
  count: number;
  refunded: number;
}

/** Which scheduled messages to cancel; the first identifier supplied wins (message, send, custom_ref). */
export interface CancelCommand {
  messageId?: string;
  sendId?: number;
  customRef?: string;
}

type CancelFailure = Extract<Condition, 'failedToCancelMessage' | 'failedToCancelSend' | 'failedToCancelMessages'>;

/**
 * DELETE /v1/messages: cancels scheduled messages by message_id, send_id or custom_ref (first supplied
 * wins, no fall-through). The status change, the refund and the `cancelled` webhooks are one
 * transaction: if any step fails, nothing is cancelled and nothing refunded, and the interface's 500
 * text is answered.
 */
@Injectable()
export class CancelMessagesService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly accounts: AccountsService,
    private readonly messages: MessagesRepository,
    private readonly unclaimed: UnclaimedCancellation,
    private readonly credits: CreditsService,
    private readonly webhooks: WebhookEventsService,
    private readonly clock: Clock,
  ) {}

  cancel(accountId: number, command: CancelCommand): Promise<CancelByMessageResult | CancelBySendResult | CancelByCustomRefResult> {
    // '' is no identifier, as for GET.
    if (command.messageId) return this.byMessageId(accountId, command.messageId);
    if (command.sendId !== undefined) return this.bySendId(accountId, command.sendId);
    if (command.customRef) return this.byCustomRef(accountId, command.customRef);
    throw failure('cancelIdentifierRequired');
  }

  /**
   * An opt-out's effect on sending: the number's scheduled and pending messages that no dispatcher has
   * taken yet are cancelled and refunded, inside the caller's transaction.
   */
  async cancelForRecipient(accountId: number, number: string, tx: Tx): Promise<CancelOutcome> {
    const cancelled = await this.unclaimed.cancelUnsentToRecipient(accountId, number, tx);
    return this.refundAndNotify(accountId, cancelled, 'recipient opted out', `stop:${number}`, tx);
  }

  private async byMessageId(accountId: number, messageId: string): Promise<CancelByMessageResult> {
    if (!isUuid(messageId)) throw failure('messageNotFound');
    const id = messageId.toLowerCase();
    const outcome = await this.inTransaction('failedToCancelMessage', async (tx) => {
      const cancelled = await this.cancelAndRefund(accountId, { messageId: id }, `message:${id}`, tx);
      if (cancelled.count > 0) return cancelled;
      const status = await this.messages.statusOf(accountId, id, tx);
      if (status === null) throw failure('messageNotFound');
      throw failure('messageNotScheduled');
    });
    return toCancelByMessageResult(id, outcome);
  }

  private async bySendId(accountId: number, sendId: number): Promise<CancelBySendResult> {
    const outcome = await this.inTransaction('failedToCancelSend', async (tx) => {
      if (!(await this.messages.sendExists(accountId, sendId, tx))) throw failure('sendNotFound');
      const result = await this.cancelAndRefund(accountId, { sendId }, `send:${sendId}`, tx);
      if (result.count === 0) throw failure('noScheduledForSend');
      return result;
    });
    return toCancelBySendResult(sendId, outcome);
  }

  private async byCustomRef(accountId: number, customRef: string): Promise<CancelByCustomRefResult> {
    const outcome = await this.inTransaction('failedToCancelMessages', async (tx) => {
      const result = await this.cancelAndRefund(accountId, { customRef }, `custom_ref:${customRef}`, tx);
      if (result.count === 0) throw failure('noScheduledForCustomRef');
      return result;
    });
    return toCancelByCustomRefResult(customRef, outcome);
  }

  private async cancelAndRefund(accountId: number, match: CancelMatch, reference: string, tx: Tx): Promise<CancelOutcome> {
    const cancelled = await this.unclaimed.cancelScheduled(accountId, match, tx);
    return this.refundAndNotify(accountId, cancelled, 'cancelled scheduled messages', reference, tx);
  }

  /** Refund (live accounts) and one `cancelled` status webhook per part, in the cancelling transaction. */
  private async refundAndNotify(accountId: number, cancelled: CancelledMessageRecord[], reason: string, reference: string, tx: Tx): Promise<CancelOutcome> {
    if (cancelled.length === 0) return { count: 0, refunded: 0 };
    const refunded = cancelled.reduce((sum, c) => sum + c.cost, 0);
    // Test accounts were never charged, so nothing moves; the amount is still reported. Read in the
    // transaction: asking the pool for a second connection while holding one can starve it under load.
    const { isTest } = await this.accounts.get(accountId, tx);
    if (!isTest && refunded > 0) {
      await this.credits.refund(
        accountId,
        cancelled.map((c) => ({ messageId: c.id, amount: c.cost })),
        reason,
        reference,
        tx,
      );
    }
    await this.webhooks.messagesCancelled(accountId, cancelled, this.clock.now(), tx);
    return { count: cancelled.length, refunded };
  }

  private async inTransaction(failed: CancelFailure, work: (tx: Tx) => Promise<CancelOutcome>): Promise<CancelOutcome> {
    try {
      return await this.uow.run(work);
    } catch (err) {
      if (err instanceof DomainError || classifyDependencyFailure(err)) throw err;
      throw failureBecause(err, failed);
    }
  }
}
