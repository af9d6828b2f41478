import { Injectable } from '@nestjs/common';
import { uuid7 } from '../common/ids/uuid7';
import { AccountsService } from '../accounts/accounts.service';
import { analyseMessage } from '../common/sms';
import { Clock } from '../common/time/clock';
import { AppConfig } from '../config/app-config';
import { Tx } from '../database/unit-of-work';
import { DispatchQueue } from '../queues/dispatch-queue';
import { numericSenderValue } from '../senders/sender-value';
import type { MessageStatus } from './message.entity';
import { MessagesRepository } from './messages.repository';
import { SendsRepository } from './sends.repository';

/**
 * Texts the platform sends for itself (own-mobile confirmation links): messages of the system account in
 * a send of kind `system`, from SYSTEM_SENDER, at cost 0 and with no ledger entry, so they are never a
 * customer's send, charge or history. They go through dispatch like any message (claimed, submitted to
 * the live carrier, receipts recorded); one a test account asked for goes to the simulator instead.
 */
@Injectable()
export class SystemMessagesService {
  constructor(
    private readonly accounts: AccountsService,
    private readonly sends: SendsRepository,
    private readonly messages: MessagesRepository,
    private readonly dispatch: DispatchQueue,
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  /**
   * Stores the text in the caller's transaction and enqueues its dispatch after the commit; answers the
   * message id. `simulated`: asked for by a test account, so it goes to the simulator like its messages.
   */
  async send(to: string, text: string, tx: Tx, options: { simulated?: boolean } = {}): Promise<string> {
    const accountId = await this.accounts.systemAccountId(tx);
    const analysis = analyseMessage(text, true);
    if ('error' in analysis) throw new Error('unreachable: unicode is allowed');
    const now = this.clock.now();
    const sender = this.config.systemSender;
    const sendId = await this.sends.insert({ accountId, apiKeyId: null, kind: 'system', ignoreUnsubscribes: true, messageCount: 1, totalCost: 0 }, tx);
    const id = uuid7();
    await this.messages.insertMany(
      accountId,
      sendId,
      options.simulated ?? false,
      [
        {
          id,
          to,
          sender,
          senderType: numericSenderValue(sender) === null ? 'alpha' : 'shared',
          body: text,
          customRef: null,
          status: 'pending',
          encoding: analysis.encoding,
          parts: analysis.parts,
          cost: 0,
          scheduledFor: null,
          dispatchAt: now,
        },
      ],
      tx,
    );
    tx.afterCommit(() => this.dispatch.sendCommitted(sendId, [now]));
    return id;
  }

  /** Takes a secret (a used link) out of a system text's stored body. */
  async redact(messageId: string, secret: string, replacement: string, tx: Tx): Promise<void> {
    await this.messages.redactBody(await this.accounts.systemAccountId(tx), messageId, secret, replacement, tx);
  }

  /** Where each of these system texts is: pending, sent, delivered or failed. */
  async statuses(messageIds: string[]): Promise<Map<string, MessageStatus>> {
    if (messageIds.length === 0) return new Map();
    return this.messages.statusesOf(await this.accounts.systemAccountId(), messageIds);
  }
}
