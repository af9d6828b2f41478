import { randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { AccountsService } from '../../accounts/accounts.service';
import { failure } from '../../common/errors/error-catalogue';
import { normaliseAuMobile } from '../../common/phone';
import { Clock } from '../../common/time/clock';
import { AppConfig } from '../../config/app-config';
import { UnitOfWork } from '../../database/unit-of-work';
import { SystemMessagesService } from '../../messaging/system-messages.service';
import { SendersService } from '../../senders/senders.service';
import type { Actor } from '../../users/actor';
import { AuditLogService } from '../../users/audit-log.service';
import { digestOf } from '../../users/secret-token';
import { ConfirmationBudget } from './confirmation-budget';
import { confirmationText } from './confirmation-text';
import { SenderVerificationsRepository } from './sender-verifications.repository';

/** A confirmation link works once, for 24 hours (supplement: Own mobile as sender). */
export const CONFIRM_LINK_LIFETIME_MS = 24 * 60 * 60 * 1000;
/** Confirmation texts to one number in any hour, whichever accounts ask (a handset is never flooded). */
export const CONFIRMATIONS_PER_HOUR = 3;
const HOUR_MS = 60 * 60 * 1000;
export const CONFIRM_PATH = '/senders/confirm';
export const MAX_SENDER_LABEL_LENGTH = 100;

export interface OwnMobileRegistered {
  number: string;
  /** True when the number was already waiting and this sent a new link. */
  resent: boolean;
  /** A test account's link: its text is simulated and reaches no phone, so the link is handed back instead. */
  testConfirmationUrl?: string;
}

export interface OwnMobileConfirmed {
  number: string;
  accountName: string;
  /** The link had been used before and the number is still active: nothing changed. */
  alreadyConfirmed: boolean;
}

/**
 * A person's own mobile as a sender: registering texts a single-use link to it (a system text, through
 * dispatch, at no charge to the account), and the number becomes an active `own` sender only when the
 * link is opened. Only the link's SHA-256 is stored; its text is taken out of the stored message once used.
 */
@Injectable()
export class OwnMobileService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly verifications: SenderVerificationsRepository,
    private readonly senders: SendersService,
    private readonly systemMessages: SystemMessagesService,
    private readonly accounts: AccountsService,
    private readonly audit: AuditLogService,
    private readonly config: AppConfig,
    private readonly clock: Clock,
    private readonly budget: ConfirmationBudget,
  ) {}

  /**
   * Registers (or re-sends the link of) a mobile; a number already active on the account is refused, a
   * fourth text to one number within an hour is 429 with the minutes to wait, and so is a text past the
   * account's, the key's or the address's budget (ConfirmationBudget).
   */
  async register(actor: Actor, input: { number: string; label?: string }): Promise<OwnMobileRegistered> {
    if (input.number.trim() === '') throw failure('required', 'number');
    const number = normaliseAuMobile(input.number);
    if (!number) throw failure('invalidPhoneNumber');
    const label = (input.label ?? '').trim();
    if (label.length > MAX_SENDER_LABEL_LENGTH) throw failure('senderLabelTooLong');
    const account = await this.accounts.get(actor.accountId);
    await this.budget.spend(actor);
    return this.uow.run(async (tx) => {
      await this.verifications.lockNumber(number, tx);
      const existing = await this.senders.lockByValue(actor.accountId, number, tx);
      if (existing?.status === 'active') throw failure('senderAlreadyActive');
      const now = this.clock.now();
      const recent = await this.verifications.sentSince(number, new Date(now.getTime() - HOUR_MS), tx);
      if (recent.count >= CONFIRMATIONS_PER_HOUR) {
        const waitMs = recent.oldest!.getTime() + HOUR_MS - now.getTime();
        throw failure('confirmationsThrottled', Math.max(1, Math.ceil(waitMs / 60_000))).retryAfter(waitMs / 1000);
      }
      const sender = await this.senders.makePendingOwn(actor.accountId, number, label, tx);
      await this.verifications.retireLive(sender.id, now, tx);
      const token = randomBytes(16).toString('base64url');
      const link = `${this.config.dashboardUrl}${CONFIRM_PATH}/${token}`;
      // A test account's text is simulated like all its messages: it never reaches a phone.
      const messageId = await this.systemMessages.send(number, confirmationText(account.name, link), tx, { simulated: account.isTest });
      await this.verifications.insert(
        {
          accountId: actor.accountId,
          senderId: sender.id,
          number,
          tokenSha256: digestOf(token),
          messageId,
          userId: actor.userId,
          apiKeyId: actor.apiKeyId ?? null,
          createdAt: now,
          expiresAt: new Date(now.getTime() + CONFIRM_LINK_LIFETIME_MS),
        },
        tx,
      );
      const resent = existing?.status === 'pending';
      await this.audit.record(actor, resent ? 'sender.own_link_resent' : 'sender.own_registered', number, tx);
      return { number, resent, ...(account.isTest ? { testConfirmationUrl: link } : {}) };
    });
  }

  /** The user's own verified mobiles: those they registered, confirmed by the link, and still active (the compose page's test send goes to one). */
  async verifiedBy(accountId: number, userId: number): Promise<string[]> {
    return this.verifications.confirmedByUser(accountId, userId);
  }

  /** Opens a confirmation link: the pending number becomes an active `own` sender. */
  async confirm(token: string, ip: string): Promise<OwnMobileConfirmed> {
    const digest = digestOf(token);
    return this.uow.run(async (tx) => {
      const now = this.clock.now();
      const found = await this.verifications.findByToken(digest, tx);
      if (!found) throw failure('senderLinkInvalid');
      // The sender row first, then the link: the order every change of an own sender takes its locks in.
      const sender = await this.senders.lockById(found.accountId, found.senderId, tx);
      const used = await this.verifications.consume(digest, now, tx);
      const account = await this.accounts.get(found.accountId, tx);
      if (!used) {
        // Opened again (a second tap, or a link preview first): say so while the link's 24 hours last, change nothing.
        const stillActive = found.usedAt !== null && found.expiresAt > now && sender?.status === 'active' && sender.type === 'own';
        if (!stillActive) throw failure('senderLinkInvalid');
        return { number: found.number, accountName: account.name, alreadyConfirmed: true };
      }
      if (!(await this.senders.activatePendingOwn(used.senderId, tx))) throw failure('senderLinkInvalid');
      await this.verifications.retireLive(used.senderId, now, tx);
      if (used.messageId) await this.systemMessages.redact(used.messageId, token, '[used]', tx);
      const phone: Actor = { userId: null, accountId: used.accountId, email: 'confirmation link (text message)', isOwner: false, permissions: [], ip };
      await this.audit.record(phone, 'sender.own_confirmed', used.number, tx);
      return { number: used.number, accountName: account.name, alreadyConfirmed: false };
    });
  }
}
