import { Injectable, Logger } from '@nestjs/common';
import { ConsentService } from '../consent/consent.service';
import { Tx } from '../database/unit-of-work';
import type { KeywordActions } from '../keywords/built-in-keywords';
import { ListsService } from '../lists/lists.service';
import { AutoReplyOutcome, AutoReplyService } from '../messaging/auto-reply.service';
import { UnsubscribesService } from '../unsubscribes/unsubscribes.service';
import { OptOutService } from './opt-out.service';

export interface KeywordReply {
  accountId: number;
  /** The stored inbound message: the evidence of what the keyword changed. */
  inboundId: string;
  /** The mobile that replied (an Australian mobile: actions never touch other senders). */
  mobile: string;
  /** The account's number it replied to. */
  to: string;
  text: string;
  /** A STOP-family reply: the opt-out has been applied and only the rule's reply (its confirmation) follows. */
  stop: boolean;
}

/**
 * What a matched keyword does, in the inbound message's transaction: opt back in or out, join or
 * leave a list, then the auto-reply (after the standing changes, so START's confirmation reaches the
 * number it re-subscribed and an opt-out's confirmation is the only text an opted-out number gets).
 */
@Injectable()
export class KeywordActionsService {
  private readonly logger = new Logger(KeywordActionsService.name);

  constructor(
    private readonly optOuts: OptOutService,
    private readonly unsubscribes: UnsubscribesService,
    private readonly lists: ListsService,
    private readonly autoReplies: AutoReplyService,
    private readonly consent: ConsentService,
  ) {}

  async apply(reply: KeywordReply, actions: KeywordActions, tx: Tx): Promise<AutoReplyOutcome | null> {
    const { accountId, mobile } = reply;
    const optingOut = reply.stop || actions.optOut;
    if (!reply.stop) {
      const evidence = { inboundMessageId: reply.inboundId, detail: actions.keyword };
      const source = actions.ruleId === null ? 'start' : 'keyword';
      if (actions.optIn) await this.unsubscribes.resubscribe(accountId, mobile, tx, { source, evidence });
      if (actions.optOut) await this.optOuts.apply(accountId, mobile, 'reply', tx, evidence);
      if (actions.addToListId !== null && !actions.optOut && (await this.lists.addNumber(accountId, actions.addToListId, mobile, tx))) {
        // Joining a list by keyword is an opt-in to what is sent to it.
        await this.consent.record(accountId, mobile, 'opt_in', 'keyword', { ...evidence, detail: `${actions.keyword}: joined list ${actions.addToListId}` }, tx);
      }
      if (actions.removeFromListId !== null) await this.lists.removeNumber(accountId, actions.removeFromListId, mobile, tx);
    }
    if (actions.reply === null) return null;
    const outcome = await this.autoReplies.send({ accountId, from: reply.to, to: mobile, text: actions.reply, answering: reply.text, ignoreUnsubscribes: optingOut }, tx);
    if (!outcome.sent) this.logger.log({ msg: 'auto-reply not sent', accountId, ruleId: actions.ruleId, keyword: actions.keyword, reason: outcome.reason });
    return outcome;
  }
}
