import { Injectable } from '@nestjs/common';
import { DailyMessageCap } from '../accounts/daily-message-cap.service';
import { CreditsService } from '../billing/credits.service';
import { DomainError } from '../common/errors/domain-error';
import { classifyDependencyFailure } from '../common/errors/dependency-errors';
import { failureBecause } from '../common/errors/error-catalogue';
import { jsonText } from '../common/http/serialized-json';
import { TableStatistics } from '../database/table-statistics';
import { Tx, UnitOfWork } from '../database/unit-of-work';
import type { LinkBatch } from '../links/link-rewriter';
import { LinkStore } from '../links/link-store.service';
import { IdempotencyClaim, IdempotencyKeyTaken, IdempotencyService } from '../idempotency/idempotency.service';
import { BalanceQueue } from '../queues/balance-queue';
import { DispatchQueue } from '../queues/dispatch-queue';
import { BrakeTripped, SendingBrakeService } from '../sending-brake/sending-brake.service';
import { MessagesRepository, NewMessage } from './messages.repository';
import { SendAlreadySubmitted } from './send-requester';
import { NewSend, SendsRepository, SendTotals } from './sends.repository';

/**
 * A send's messages made a slice at a time, each while PostgreSQL stores the slices before (BatchRows):
 * the send's counts are known once the last is made.
 */
export interface StreamedMessages {
  /** The next slice's messages ([] when it has none), null once every one is made. */
  nextSlice(): NewMessage[] | null;
  /** The send's counts, once nextSlice() has answered null. */
  totals(): SendTotals;
}

interface PricedSendCommon {
  /** Test accounts are priced but never charged (supplement: Test accounts). */
  isTest: boolean;
  /** Ledger reason of the debit. */
  debitReason: string;
  /** Short and opt-out links of the messages, stored before them (so only with messages made up front). */
  links?: LinkBatch;
}

/** A send ready to store: its row and its priced messages, made up front or while they are stored, and who pays. */
export type PricedSend = PricedSendCommon & ({ send: NewSend; messages: NewMessage[] } | { send: Omit<NewSend, keyof SendTotals>; messages: StreamedMessages; links?: undefined });

export interface PersistOptions<R> {
  claim?: IdempotencyClaim;
  /** The 500 the interface names for this operation when something unexpected fails. */
  failure: 'failedToProcessMessages' | 'failedToSendToList';
  /** The 403 when the account cannot pay, built inside the transaction. */
  insufficientCredits: (tx: Tx) => Promise<DomainError>;
  /** The response, from the new send's id (a SerializedJson is stored for Idempotency-Key replays as it is). */
  respond: (sendId: number) => R | Promise<R>;
}

/**
 * Stores a priced send, the one way every send is written: idempotency claim, send row (none when its
 * dashboard form key was used already: SendAlreadySubmitted), its links and the messages in set-based
 * inserts, then the daily cap, the spending brake and the debit, and the stored idempotent response, all in
 * one transaction; dispatch is enqueued after the commit (if that is lost, the sweeper finds the due
 * messages in PostgreSQL).
 */
@Injectable()
export class SendWriter {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly sends: SendsRepository,
    private readonly messages: MessagesRepository,
    private readonly credits: CreditsService,
    private readonly idempotency: IdempotencyService,
    private readonly dispatch: DispatchQueue,
    private readonly balance: BalanceQueue,
    private readonly links: LinkStore,
    private readonly statistics: TableStatistics,
    private readonly brake: SendingBrakeService,
    private readonly dailyCap: DailyMessageCap,
  ) {}

  async persist<R>(priced: PricedSend, options: PersistOptions<R>): Promise<R> {
    // Streamed messages' counts are written once they are all stored (storeMessages).
    const send: NewSend = Array.isArray(priced.messages) ? (priced.send as NewSend) : { ...priced.send, messageCount: 0, totalCost: 0, blockedCount: 0 };
    try {
      return await this.uow.run(async (tx) => {
        if (options.claim) await this.idempotency.claim(options.claim, tx);
        const sendId = await this.sends.insertUnlessFormKeyUsed(send, tx);
        if (sendId === null) throw new SendAlreadySubmitted((await this.sends.findByFormKey(send.accountId, send.formKey ?? '', tx)) ?? 0);
        // Links first: a code another send took meanwhile is redrawn and rewritten into its message's text.
        if (priced.links && priced.links.drafts.length > 0) await this.links.store(send.accountId, sendId, priced.links, tx);
        // The answer is built while PostgreSQL stores the last rows: until the commit it is only data, and a
        // refusal below throws it away with them.
        let building: Promise<R> | undefined;
        const build = () => (building ??= Promise.resolve(options.respond(sendId)));
        const { messages, totals } = await this.storeMessages(priced, send, sendId, tx, async () => void (await build()));
        const response = await build();
        // The rows every send of the account (or key) updates are taken last, so each is locked only from
        // here to the commit: concurrent sends of one account insert their messages side by side instead
        // of one after another (a 10000-message insert is about 110 ms). A refusal rolls the rows back, so
        // over a limit or short of credits nothing is written, as before.
        // The calling key's daily message cap (accounts/daily-message-cap).
        await this.dailyCap.take(send.apiKeyId, messages.length, tx);
        // The spending brake: a live account's messages counted against its own history (one UPDATE).
        if (!priced.isTest && messages.length > 0) await this.brake.admit(send.accountId, messages.length, tx);
        if (!priced.isTest && totals.totalCost > 0) {
          const debited = await this.credits.debit(send.accountId, totals.totalCost, priced.debitReason, `send:${sendId}`, tx);
          if (!debited) throw await options.insufficientCredits(tx);
          // Took the balance below auto-recharge's or the warning's threshold: handled once, after the commit.
          if (debited.crossings.length) tx.afterCommit(() => void this.balance.crossed(debited.crossings));
        }
        if (options.claim) await this.idempotency.complete(options.claim, tx, 200, jsonText(response));
        // The response does not wait for Redis: a staggered send enqueues one job per due second.
        if (messages.length) {
          tx.afterCommit(
            () =>
              void this.dispatch.sendCommitted(
                sendId,
                messages.map((m) => m.dispatchAt),
              ),
          );
          tx.afterCommit(() => this.statistics.grew('messages', messages.length));
        }
        return response;
      });
    } catch (err) {
      // Rolled back; now pause the account and answer the brake's 403.
      if (err instanceof BrakeTripped) throw await this.brake.trip(err);
      if (err instanceof DomainError || err instanceof IdempotencyKeyTaken || err instanceof SendAlreadySubmitted || classifyDependencyFailure(err)) throw err;
      throw failureBecause(err, options.failure);
    }
  }

  /**
   * The send's messages stored, and its counts: as priced, or, for streamed messages, counted as they
   * were made and written to the send row once they are stored.
   */
  private async storeMessages(
    priced: PricedSend,
    send: NewSend,
    sendId: number,
    tx: Tx,
    whileStoring: () => Promise<void>,
  ): Promise<{ messages: NewMessage[]; totals: SendTotals }> {
    if (Array.isArray(priced.messages)) {
      await this.messages.insertMany(send.accountId, sendId, priced.isTest, priced.messages, tx, whileStoring);
      return { messages: priced.messages, totals: send };
    }
    const streamed = priced.messages;
    const messages = await this.messages.insertSlices(send.accountId, sendId, priced.isTest, () => streamed.nextSlice(), tx, whileStoring);
    const totals = streamed.totals();
    // StreamedMessages can be used once: reused, it would store nothing while its totals count every message.
    if (totals.messageCount !== messages.length) throw new Error(`streamed send: ${totals.messageCount} messages counted, ${messages.length} stored`);
    await this.sends.setTotals(send.accountId, sendId, totals, tx);
    return { messages, totals };
  }
}
