import { Injectable } from '@nestjs/common';
import { Clock } from '../common/time/clock';
import type { ConsentSource } from '../consent/consent-record.entity';
import type { ConsentEvidence } from '../consent/consent.repository';
import { Tx, UnitOfWork } from '../database/unit-of-work';
import { CancelMessagesService } from '../messaging/cancel-messages.service';
import type { UnsubscribeSource } from '../unsubscribes/unsubscribe.entity';
import { UnsubscribesService } from '../unsubscribes/unsubscribes.service';
import { WebhookEventsService } from '../webhooks/webhook-events.service';
import { InboundRepository } from './inbound.repository';

/**
 * The effects of opting out, one path for a STOP reply and the opt-out link: the number joins the
 * account's unsubscribe list (with how it opted out) and leaves every list, and its scheduled messages
 * are cancelled with refunds, all in the caller's transaction.
 */
@Injectable()
export class OptOutService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly repo: InboundRepository,
    private readonly unsubscribes: UnsubscribesService,
    private readonly cancellations: CancelMessagesService,
    private readonly webhooks: WebhookEventsService,
    private readonly clock: Clock,
  ) {}

  /** Returns false when the number was already unsubscribed (the other effects apply either way). */
  /** `consentSource`: how the consent record names it when that differs from the list's source (the dashboard's opt-outs are `api` there). */
  async apply(accountId: number, mobile: string, source: UnsubscribeSource, tx: Tx, evidence: ConsentEvidence = {}, consentSource: ConsentSource = source): Promise<boolean> {
    const added = await this.unsubscribes.unsubscribe(accountId, mobile, source, tx, evidence, consentSource);
    await this.cancellations.cancelForRecipient(accountId, mobile, tx);
    return added;
  }

  /**
   * An opt-out through the link (supplement: every effect of a STOP reply, source `link`): the
   * `unsubscribe` inbound webhook has an empty message and names the message the link came in (for
   * the per-account link, the last message sent to the number), when there is one.
   */
  async byLink(accountId: number, mobile: string, messageId: string | null, clientAddress: string | null = null): Promise<void> {
    await this.uow.run(async (tx) => {
      const added = await this.apply(accountId, mobile, 'link', tx, { messageId, clientAddress });
      // A second confirmation (a reload, a double tap) changes nothing and tells the account nothing new.
      if (!added) return;
      const original = await this.repo.originalForLinkOptOut(accountId, mobile, messageId, tx);
      await this.webhooks.inboundReceived(
        accountId,
        {
          to: original?.sender ?? '',
          sender: mobile,
          message: '',
          receivedAt: this.clock.now(),
          type: 'unsubscribe',
          originalMessageId: original?.id ?? null,
          originalCustomRef: original?.custom_ref ?? null,
        },
        tx,
      );
    });
  }
}
