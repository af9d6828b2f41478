import { Injectable, Logger } from '@nestjs/common';
import { AccountsService } from '../accounts/accounts.service';
import { Clock } from '../common/time/clock';
import { AppConfig } from '../config/app-config';
import { Tx, UnitOfWork } from '../database/unit-of-work';
import { MailService } from '../mail/mail.service';
import { MailTemplates } from '../mail/mail-templates';
import { NumberInventoryService } from '../numbers/number-inventory.service';
import { CardsService } from '../payments/cards.service';
import { PaymentProviderUnavailable } from '../payments/payment-provider';
import { SendersService } from '../senders/senders.service';
import { UsersService } from '../users/users.service';
import type { NumberSubscription } from './number-subscription.entity';
import { withGst } from './pricing';
import { PurchaseSettler } from './purchase-settler.service';
import { PurchasesRepository } from './purchases.repository';
import { SubscriptionsRepository } from './subscriptions.repository';

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;
const BATCH = 100;

export interface RenewalReport {
  renewed: number;
  failed: number;
  released: number;
  pending: number;
}

/**
 * The renewal job: a bought number is charged on the same card `numberRenewalLeadDays` before it
 * expires (a renewal purchase, idempotent per subscription, period and attempt); a decline is retried
 * every `numberRenewalRetryHours` and the owner is emailed; once `numberGraceDays` past expiry the
 * number is released back to the inventory and stops being a sender. Time comes from the Clock.
 */
@Injectable()
export class RenewalsService {
  private readonly logger = new Logger(RenewalsService.name);

  constructor(
    private readonly uow: UnitOfWork,
    private readonly subscriptions: SubscriptionsRepository,
    private readonly purchases: PurchasesRepository,
    private readonly inventory: NumberInventoryService,
    private readonly cards: CardsService,
    private readonly senders: SendersService,
    private readonly settler: PurchaseSettler,
    private readonly accounts: AccountsService,
    private readonly users: UsersService,
    private readonly mail: MailService,
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  async runDue(): Promise<RenewalReport> {
    const report: RenewalReport = { renewed: 0, failed: 0, released: 0, pending: 0 };
    const now = this.clock.now();
    for (const id of await this.subscriptions.dueIds(now, this.config.numberRenewalLeadDays * DAY_MS, BATCH)) {
      const step = await this.uow.run((tx) => this.begin(id, now, tx));
      if (step === 'released') report.released++;
      if (typeof step !== 'number') continue;
      try {
        const settled = await this.settler.settle(step);
        if (settled.state === 'fulfilled') report.renewed++;
        else if (settled.state === 'declined') report.failed++;
        else report.pending++;
      } catch (err) {
        if (!(err instanceof PaymentProviderUnavailable)) throw err;
        this.logger.warn({ msg: 'renewal charge left for the reconciler', purchase_id: step, err: err.message });
        report.pending++;
      }
    }
    return report;
  }

  /** Under the subscription's row lock: release it after the grace period, or record one renewal attempt. */
  private async begin(id: number, now: Date, tx: Tx): Promise<number | 'released' | null> {
    const sub = await this.subscriptions.lock(id, tx);
    // Re-checked under the lock: another runner may have just taken this attempt.
    if (!sub || sub.releasedAt || (sub.nextAttemptAt && sub.nextAttemptAt.getTime() > now.getTime())) return null;
    // An attempt still open (a payment held for review) decides first: releasing the number now could
    // leave that payment, once it goes through, paying for a number the account no longer has.
    if (await this.purchases.hasOpenRenewal(sub.accountId, sub.number, tx)) {
      await this.subscriptions.postpone(sub.id, new Date(now.getTime() + this.config.numberRenewalRetryHours * HOUR_MS), tx);
      return null;
    }
    if (sub.renewalState === 'retrying' && now.getTime() >= sub.expiresAt.getTime() + this.config.numberGraceDays * DAY_MS) {
      await this.release(sub, now, tx);
      return 'released';
    }
    const original = await this.purchases.byId(sub.purchaseId, tx);
    const card = await this.cards.byId(sub.accountId, sub.cardId, tx);
    const priceCents = await this.inventory.priceOf(sub.number, tx);
    if (!original || !card || priceCents === null) return null;
    const price = withGst(priceCents);
    const purchase = await this.purchases.insert(
      {
        accountId: sub.accountId,
        apiKeyId: sub.apiKeyId,
        apiKeyLabel: original.apiKeyLabel,
        apiUsername: original.apiUsername,
        idempotencyKey: `renewal:${sub.id}:${sub.expiresAt.getTime()}:${sub.renewalAttempts}`,
        fingerprint: null,
        kind: 'renewal',
        credits: null,
        number: sub.number,
        cardId: card.id,
        cardLast4: card.last4,
        amountExGstCents: price.exGstCents,
        gstCents: price.gstCents,
        amountIncGstCents: price.incGstCents,
        provider: card.provider,
        createdAt: now,
      },
      tx,
    );
    // No second attempt while this one is in flight; a decline sets the next retry.
    await this.subscriptions.postpone(sub.id, new Date(now.getTime() + this.config.numberRenewalRetryHours * HOUR_MS), tx);
    return purchase.id;
  }

  private async release(sub: NumberSubscription, now: Date, tx: Tx): Promise<void> {
    await this.subscriptions.release(sub.id, now, tx);
    await this.inventory.release(sub.accountId, sub.number, tx);
    const sender = await this.senders.lockByValue(sub.accountId, sub.number, tx);
    if (sender) await this.senders.deactivate(sender.id, tx);
    tx.afterCommit(async () => {
      const owner = await this.users.ownerOf(sub.accountId);
      if (!owner) return;
      const account = await this.accounts.get(sub.accountId);
      await this.mail.send(MailTemplates.numberReleased(owner.email, { accountName: account.name, number: sub.number }));
    });
  }
}
