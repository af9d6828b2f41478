import { Injectable } from '@nestjs/common';
import { AccountsService } from '../accounts/accounts.service';
import { CreditsService } from '../billing/credits.service';
import { uuid7 } from '../common/ids/uuid7';
import { analyseMessage } from '../common/sms';
import { Clock } from '../common/time/clock';
import { AppConfig } from '../config/app-config';
import { Tx, UnitOfWork } from '../database/unit-of-work';
import { BalanceQueue } from '../queues/balance-queue';
import { DispatchQueue } from '../queues/dispatch-queue';
import { SendersService } from '../senders/senders.service';
import { UnsubscribesService } from '../unsubscribes/unsubscribes.service';
import { AutoRepliesRepository } from './auto-replies.repository';
import { MessagesRepository } from './messages.repository';
import { SendsRepository } from './sends.repository';

export interface AutoReply {
  accountId: number;
  /** The account's number the reply came in on: the auto-reply leaves from it. */
  from: string;
  /** The mobile that replied. */
  to: string;
  text: string;
  /** What the mobile said (the loop guard never answers a repeat of our own auto-reply). */
  answering: string;
  /** Only for the opt-out confirmation the account chose: it goes to a number that has just opted out. */
  ignoreUnsubscribes: boolean;
}

export type AutoReplyOutcome =
  { sent: true; messageId: string; sendId: number } | { sent: false; reason: 'unsubscribed' | 'loop_guard' | 'insufficient_credits' | 'no_sender' | 'unencodable' };

class CannotPay extends Error {}

/**
 * A keyword rule's auto-reply: a send of kind `reply` like any other (priced by parts, debited with a
 * ledger row, dispatched after the commit), written in the caller's transaction so it leaves with the
 * inbound message that caused it. The loop guard answers at most AUTO_REPLY_LIMIT times per number per
 * AUTO_REPLY_WINDOW_MS and never answers a reply that repeats one of our auto-replies, so two machines
 * answering each other stop at once or within the limit.
 */
@Injectable()
export class AutoReplyService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly accounts: AccountsService,
    private readonly senders: SendersService,
    private readonly unsubscribes: UnsubscribesService,
    private readonly credits: CreditsService,
    private readonly sends: SendsRepository,
    private readonly messages: MessagesRepository,
    private readonly replies: AutoRepliesRepository,
    private readonly dispatch: DispatchQueue,
    private readonly balance: BalanceQueue,
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  async send(reply: AutoReply, tx: Tx): Promise<AutoReplyOutcome> {
    const { accountId, from, to } = reply;
    if (!reply.ignoreUnsubscribes && (await this.unsubscribes.unsubscribedAmong(accountId, [to], tx)).size > 0) return { sent: false, reason: 'unsubscribed' };
    const now = this.clock.now();
    const recent = await this.replies.recent(accountId, from, to, new Date(now.getTime() - this.config.autoReplyWindowMs), reply.answering, tx);
    if (recent.echoes || recent.count >= this.config.autoReplyLimit) return { sent: false, reason: 'loop_guard' };
    const sender = (await this.senders.active(accountId, tx)).match(from);
    if (!sender) return { sent: false, reason: 'no_sender' };
    const analysis = analyseMessage(reply.text, true);
    if ('error' in analysis) return { sent: false, reason: 'unencodable' };
    const account = await this.accounts.get(accountId, tx);
    const cost = analysis.parts * account.partRate;
    try {
      // Under a savepoint: a reply the account cannot pay for leaves no send row and undoes nothing else.
      return await this.uow.savepoint(tx, async () => {
        const sendId = await this.sends.insert({ accountId, apiKeyId: null, kind: 'reply', ignoreUnsubscribes: reply.ignoreUnsubscribes, messageCount: 1, totalCost: cost }, tx);
        if (!account.isTest && cost > 0) {
          const debited = await this.credits.debit(accountId, cost, 'auto-reply', `send:${sendId}`, tx);
          if (!debited) throw new CannotPay();
          // Below auto-recharge's or the warning's threshold: handled once after the commit (a crossing a rollback undid is not found, so nothing happens).
          if (debited.crossings.length) tx.afterCommit(() => void this.balance.crossed(debited.crossings));
        }
        const messageId = uuid7();
        await this.messages.insertMany(
          accountId,
          sendId,
          account.isTest,
          [
            {
              id: messageId,
              to,
              sender: sender.value,
              senderType: sender.type,
              body: reply.text,
              customRef: null,
              status: 'pending',
              encoding: analysis.encoding,
              parts: analysis.parts,
              cost,
              scheduledFor: null,
              dispatchAt: now,
            },
          ],
          tx,
        );
        tx.afterCommit(() => this.dispatch.sendCommitted(sendId, [now]));
        return { sent: true as const, messageId, sendId };
      });
    } catch (err) {
      if (err instanceof CannotPay) return { sent: false, reason: 'insufficient_credits' };
      throw err;
    }
  }
}
