import { Injectable } from '@nestjs/common';
import { AccountsService } from '../accounts/accounts.service';
import { failure } from '../common/errors/error-catalogue';
import { Clock } from '../common/time/clock';
import { UnitOfWork } from '../database/unit-of-work';
import { CardsService } from '../payments/cards.service';
import type { Actor } from '../users/actor';
import { AuditLogService } from '../users/audit-log.service';
import { can } from '../users/permissions';
import { AutoRechargeRecord, AutoRechargesRepository } from './auto-recharges.repository';

export interface AutoRechargeInput {
  enabled: boolean;
  belowCredits: number;
  buyCredits: number;
  cardId: number;
  maxPerDay: number;
}

/**
 * The account's auto-recharge ("when the balance falls below N credits, buy M with card X, at most K
 * times a day") and its low-balance warning threshold, each kept with the account's threshold column in
 * one transaction (the debit reads the column), audit-logged. manage_billing only.
 */
@Injectable()
export class BalanceSettingsService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly repo: AutoRechargesRepository,
    private readonly accounts: AccountsService,
    private readonly cards: CardsService,
    private readonly audit: AuditLogService,
    private readonly clock: Clock,
  ) {}

  async show(accountId: number): Promise<{ autoRecharge: AutoRechargeRecord | null; warnBelowCredits: number | null }> {
    const [autoRecharge, account] = await Promise.all([this.repo.get(accountId), this.accounts.get(accountId)]);
    return { autoRecharge, warnBelowCredits: account.warnBelow === null ? null : account.warnBelow / 100 };
  }

  async setAutoRecharge(actor: Actor, input: AutoRechargeInput): Promise<void> {
    if (!can(actor, 'manage_billing')) throw failure('permissionRequired');
    await this.uow.run(async (tx) => {
      const card = await this.cards.byId(actor.accountId, input.cardId, tx);
      if (!card || card.removedAt) throw failure('cardNotFound');
      await this.repo.save(actor.accountId, input, this.clock.now(), tx);
      await this.accounts.setBalanceThresholds(actor.accountId, { rechargeBelow: input.enabled ? input.belowCredits * 100 : null }, tx);
      const detail = input.enabled
        ? `on: below ${input.belowCredits} credits buy ${input.buyCredits} with ${card.brand} ending in ${card.last4}, at most ${input.maxPerDay} a day`
        : 'off';
      await this.audit.record(actor, 'billing.auto_recharge_changed', detail, tx);
    });
  }

  /** null switches the warning off. */
  async setWarning(actor: Actor, belowCredits: number | null): Promise<void> {
    if (!can(actor, 'manage_billing')) throw failure('permissionRequired');
    await this.uow.run(async (tx) => {
      await this.accounts.setBalanceThresholds(actor.accountId, { warnBelow: belowCredits === null ? null : belowCredits * 100 }, tx);
      await this.audit.record(actor, 'billing.low_balance_warning_changed', belowCredits === null ? 'off' : `below ${belowCredits} credits`, tx);
    });
  }

  /** Auto-recharge switches itself off (a declined charge): the setting and the account's threshold, together. */
  async stop(accountId: number, reason: string, actor: Actor): Promise<boolean> {
    return this.uow.run(async (tx) => {
      const stopped = await this.repo.stop(accountId, reason, this.clock.now(), tx);
      if (!stopped) return false;
      await this.accounts.setBalanceThresholds(accountId, { rechargeBelow: null }, tx);
      await this.audit.record(actor, 'billing.auto_recharge_stopped', reason, tx);
      return true;
    });
  }

  setting(accountId: number): Promise<AutoRechargeRecord | null> {
    return this.repo.get(accountId);
  }
}
