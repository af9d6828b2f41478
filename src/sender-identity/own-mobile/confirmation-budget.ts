import { Injectable } from '@nestjs/common';
import { failure } from '../../common/errors/error-catalogue';
import { AddressCounter } from '../../common/redis/address-counter';
import { AppConfig } from '../../config/app-config';
import type { Actor } from '../../users/actor';

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

export type BudgetScope = 'account' | 'key' | 'address';

export interface BudgetLimit {
  scope: BudgetScope;
  /** The Redis counter: scope, subject and window. */
  key: string;
  windowMs: number;
  limit: number;
}

/** The counters one confirmation text is charged to: its account, its API key (if any) and its client address, each per hour and per day. */
export function budgetLimits(actor: Actor, config: AppConfig): BudgetLimit[] {
  const subjects: Array<[BudgetScope, string | null, number, number]> = [
    ['account', String(actor.accountId), config.ownMobileTextsPerAccountHour, config.ownMobileTextsPerAccountDay],
    ['key', actor.apiKeyId ? String(actor.apiKeyId) : null, config.ownMobileTextsPerKeyHour, config.ownMobileTextsPerKeyDay],
    ['address', actor.ip || null, config.ownMobileTextsPerAddressHour, config.ownMobileTextsPerAddressDay],
  ];
  return subjects.flatMap(([scope, subject, perHour, perDay]) =>
    subject === null
      ? []
      : [
          { scope, key: `confirm-texts:${scope}:${subject}:h`, windowMs: HOUR_MS, limit: perHour },
          { scope, key: `confirm-texts:${scope}:${subject}:d`, windowMs: DAY_MS, limit: perDay },
        ],
  );
}

/**
 * What the platform will text at its own cost for own-mobile confirmations: beside the per-number limit,
 * a budget per account, per API key and per client address, per hour and per day (OWN_MOBILE_TEXTS_*),
 * so no account, key or address can make the platform text many numbers (SMS pumping). Counted in
 * Redis in fixed windows; a request is counted when it is asked, so refused ones count too.
 */
@Injectable()
export class ConfirmationBudget {
  constructor(
    private readonly counter: AddressCounter,
    private readonly config: AppConfig,
  ) {}

  async spend(actor: Actor): Promise<void> {
    const limits = budgetLimits(actor, this.config);
    const counts = await Promise.all(limits.map((l) => this.counter.add(l.key, l.windowMs)));
    const over = limits.filter((l, i) => counts[i] > l.limit);
    if (over.length === 0) return;
    const waitMs = Math.max(...(await Promise.all(over.map(async (l) => (await this.counter.peek(l.key)).resetMs))));
    const minutes = Math.max(1, Math.ceil(waitMs / 60_000));
    throw failure('confirmationBudgetSpent', over[0].scope, minutes).retryAfter(waitMs / 1000);
  }
}
