import { Injectable, Logger } from '@nestjs/common';
import { AccountsService } from '../accounts/accounts.service';
import { Clock } from '../common/time/clock';
import { formatUtc } from '../common/time/format';
import { AppConfig } from '../config/app-config';
import { Tx } from '../database/unit-of-work';
import { MailService } from '../mail/mail.service';
import { MailTemplates } from '../mail/mail-templates';
import { UsersService } from '../users/users.service';
import { addMonths, SUBSCRIPTION_MONTHS } from './months';
import type { PurchaseHandler } from './purchase-handler';
import type { Purchase } from './purchase.entity';
import { SubscriptionsRepository } from './subscriptions.repository';

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

/** A yearly renewal of a bought number: paid → 12 more months; declined → retried later, and the owner is told. */
@Injectable()
export class RenewalHandler implements PurchaseHandler {
  readonly kind = 'renewal' as const;
  private readonly logger = new Logger(RenewalHandler.name);

  constructor(
    private readonly subscriptions: SubscriptionsRepository,
    private readonly accounts: AccountsService,
    private readonly users: UsersService,
    private readonly mail: MailService,
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  async fulfil(p: Purchase, tx: Tx): Promise<void> {
    const sub = await this.subscriptions.liveForNumber(p.number!, tx);
    if (!sub || sub.accountId !== p.accountId) return;
    await this.subscriptions.renewed(sub.id, addMonths(sub.expiresAt, SUBSCRIPTION_MONTHS), tx);
  }

  async release(p: Purchase, tx: Tx): Promise<void> {
    const sub = await this.subscriptions.liveForNumber(p.number!, tx);
    if (!sub || sub.accountId !== p.accountId) return;
    await this.subscriptions.failedAttempt(sub.id, new Date(this.clock.now().getTime() + this.config.numberRenewalRetryHours * HOUR_MS), tx);
  }

  async response(): Promise<null> {
    return null;
  }

  async settled(p: Purchase): Promise<void> {
    if (p.state !== 'declined') return;
    const sub = await this.subscriptions.liveForNumber(p.number!);
    const owner = await this.users.ownerOf(p.accountId);
    if (!sub || !owner) return;
    const account = await this.accounts.get(p.accountId);
    const sent = await this.mail.send(
      MailTemplates.renewalFailed(owner.email, {
        accountName: account.name,
        number: p.number!,
        expiresAt: formatUtc(sub.expiresAt),
        releaseAt: formatUtc(new Date(sub.expiresAt.getTime() + this.config.numberGraceDays * DAY_MS)),
        cardLast4: p.cardLast4,
      }),
    );
    if (!sent) this.logger.warn({ msg: 'renewal failure mail not sent', purchase_id: p.id });
  }
}
