import { Injectable, Logger } from '@nestjs/common';
import { AccountsService } from '../accounts/accounts.service';
import { BalanceCrossingsService } from '../billing/balance-crossings.service';
import type { UnhandledCrossing } from '../billing/balance-crossings.repository';
import { Clock } from '../common/time/clock';
import { AppConfig } from '../config/app-config';
import { MailTemplates } from '../mail/mail-templates';
import { MailService } from '../mail/mail.service';
import { AccountPurchasesService } from '../purchases/account-purchases.service';
import { PERMISSIONS } from '../users/permissions';
import type { Actor } from '../users/actor';
import { UsersService } from '../users/users.service';
import { BalanceSettingsService } from './balance-settings.service';

const DAY_MS = 24 * 60 * 60 * 1000;
/** A crossing whose job has not handled it after this long is taken by the periodic sweep (the job was lost). */
export const CROSSING_GRACE_MS = 10_000;
const SWEEP_BATCH = 100;

/** Auto-recharge acts in the audit log under this name. */
export function autoRechargeActor(accountId: number): Actor {
  return { userId: null, accountId, email: 'auto-recharge', isOwner: false, permissions: [...PERMISSIONS], ip: '' };
}

/**
 * Handles a balance crossing once: a recharge crossing buys the account's auto-recharge amount (keyed on
 * the crossing, so two workers make one purchase and one charge), within its daily count; a declined
 * charge switches auto-recharge off and tells the owner. A warning crossing mails the owner. The job
 * queued after the debit's commit runs it; the periodic sweep takes any whose job was lost.
 */
@Injectable()
export class CrossingHandler {
  private readonly logger = new Logger(CrossingHandler.name);

  constructor(
    private readonly crossings: BalanceCrossingsService,
    private readonly settings: BalanceSettingsService,
    private readonly purchases: AccountPurchasesService,
    private readonly accounts: AccountsService,
    private readonly users: UsersService,
    private readonly mail: MailService,
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  async handle(crossingId: number): Promise<void> {
    const crossing = await this.crossings.unhandled(crossingId);
    if (!crossing) return;
    if (crossing.kind === 'warning') await this.warn(crossing);
    else await this.recharge(crossing);
  }

  /** Backstop: crossings no job handled. */
  async sweep(): Promise<void> {
    const ids = await this.crossings.unhandledBefore(new Date(this.clock.now().getTime() - CROSSING_GRACE_MS), SWEEP_BATCH);
    for (const id of ids) await this.handle(id);
  }

  private async warn(crossing: UnhandledCrossing): Promise<void> {
    if (!(await this.crossings.markHandled(crossing.id, 'mailed', this.clock.now()))) return;
    const [account, to] = await Promise.all([this.accounts.get(crossing.accountId), this.ownerEmail(crossing.accountId)]);
    if (!to) return;
    await this.mail.send(
      MailTemplates.lowBalance(to, {
        accountName: account.name,
        balance: (crossing.balanceAfter / 100).toFixed(2),
        threshold: String(crossing.threshold / 100),
        billingLink: `${this.config.dashboardUrl}/billing`,
      }),
    );
  }

  private async recharge(crossing: UnhandledCrossing): Promise<void> {
    const setting = await this.settings.setting(crossing.accountId);
    const now = this.clock.now();
    if (!setting || !setting.enabled) {
      await this.crossings.markHandled(crossing.id, 'off', now);
      return;
    }
    const actor = autoRechargeActor(crossing.accountId);
    const started = await this.purchases.existingAutoRecharge(crossing.accountId, crossing.id);
    if (!started && (await this.purchases.otherAutoRechargesSince(crossing.accountId, crossing.id, new Date(now.getTime() - DAY_MS))) >= setting.maxPerDay) {
      await this.crossings.markHandled(crossing.id, 'daily limit reached', now);
      this.logger.warn({ msg: 'auto-recharge skipped: daily count reached', account_id: crossing.accountId, crossing_id: crossing.id });
      return;
    }
    // A provider that cannot say throws: the crossing stays unhandled, for the job's retry or the sweep.
    const purchase = await this.purchases.autoRecharge(actor, crossing.id, setting.buyCredits, setting.cardId);
    if (purchase.state === 'declined') {
      if (!(await this.crossings.markHandled(crossing.id, 'declined', this.clock.now()))) return;
      if (!(await this.settings.stop(crossing.accountId, `the card ending in ${purchase.cardLast4} was declined`, actor))) return;
      const [account, to] = await Promise.all([this.accounts.get(crossing.accountId), this.ownerEmail(crossing.accountId)]);
      if (to)
        await this.mail.send(
          MailTemplates.autoRechargeStopped(to, {
            accountName: account.name,
            credits: setting.buyCredits,
            cardLast4: purchase.cardLast4,
            reason: 'the payment was declined',
            billingLink: `${this.config.dashboardUrl}/billing`,
          }),
        );
      return;
    }
    await this.crossings.markHandled(crossing.id, purchase.state === 'fulfilled' ? `bought ${setting.buyCredits} credits` : purchase.state, this.clock.now());
  }

  private async ownerEmail(accountId: number): Promise<string | null> {
    return (await this.users.ownerOf(accountId))?.email ?? null;
  }
}
