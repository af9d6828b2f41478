import { Injectable } from '@nestjs/common';
import { failure } from '../common/errors/error-catalogue';
import { Clock } from '../common/time/clock';
import { UnitOfWork } from '../database/unit-of-work';
import { CardsService } from '../payments/cards.service';
import type { Actor } from '../users/actor';
import { priceCredits } from './pricing';
import type { Purchase } from './purchase.entity';
import { PurchaseRunner } from './purchase-runner.service';
import { PurchasesRepository } from './purchases.repository';
import { AUTO_RECHARGE_PREFIX, PAGE_REQUEST_PREFIX } from './request-keys';

/** Named on the tax invoice where an API purchase names its key. */
export const BILLING_PAGE_LABEL = 'Billing page';
export const AUTO_RECHARGE_LABEL = 'Auto-recharge';

/**
 * Credits bought by a person on the Billing page: the API's tiers, GST, states, settler and invoice, with
 * the page's own key in place of an Idempotency-Key (a double-clicked or retried form is one purchase and
 * one charge: the unique request key decides, and the second request waits for the first's outcome). No
 * API key is involved, so no key's switch or daily limit applies; `manage_billing` is the rule.
 */
@Injectable()
export class AccountPurchasesService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly repo: PurchasesRepository,
    private readonly cards: CardsService,
    private readonly runner: PurchaseRunner,
    private readonly clock: Clock,
  ) {}

  /** `credits` is checked by the caller (creditsError); the card must be one of the account's saved cards. */
  async buyCreditsOnPage(actor: Actor, formKey: string, credits: number, cardId: number): Promise<Purchase> {
    return this.buyWithoutKey(actor, `${PAGE_REQUEST_PREFIX}${formKey}`, BILLING_PAGE_LABEL, actor.email, credits, cardId);
  }

  /** Auto-recharge's purchase for one balance crossing: one purchase and one charge per crossing, however many handle it. */
  async autoRecharge(actor: Actor, crossingId: number, credits: number, cardId: number): Promise<Purchase> {
    return this.buyWithoutKey(actor, `${AUTO_RECHARGE_PREFIX}${crossingId}`, AUTO_RECHARGE_LABEL, '', credits, cardId);
  }

  /** Whether auto-recharge already started the purchase of this crossing (a second handler must not count it against the day). */
  async existingAutoRecharge(accountId: number, crossingId: number): Promise<boolean> {
    return this.uow.run(async (tx) => (await this.repo.byRequestKey(accountId, `${AUTO_RECHARGE_PREFIX}${crossingId}`, tx)) !== null);
  }

  /**
   * Purchases made since then by auto-recharge for crossings other than this one, on their way or paid. This
   * crossing's own purchase never counts against its day: a second handler that read "not started" just before
   * the first handler's purchase committed would otherwise count it and call the crossing over its limit.
   */
  async otherAutoRechargesSince(accountId: number, crossingId: number, since: Date): Promise<number> {
    return this.repo.countByRequestPrefixSince(accountId, AUTO_RECHARGE_PREFIX, since, `${AUTO_RECHARGE_PREFIX}${crossingId}`);
  }

  private async buyWithoutKey(actor: Actor, requestKey: string, label: string, username: string, credits: number, cardId: number): Promise<Purchase> {
    const price = priceCredits(credits);
    const started = await this.uow.run(async (tx) => {
      const existing = await this.repo.byRequestKey(actor.accountId, requestKey, tx);
      if (existing) return { purchase: existing, first: false };
      const card = await this.cards.byId(actor.accountId, cardId, tx);
      if (!card || card.removedAt) throw failure('cardNotFound');
      const purchase = await this.repo.insertUnlessKeyTaken(
        {
          accountId: actor.accountId,
          apiKeyId: null,
          apiKeyLabel: label,
          apiUsername: username,
          idempotencyKey: null,
          fingerprint: null,
          requestKey,
          kind: 'credits',
          credits,
          number: null,
          cardId: card.id,
          cardLast4: card.last4,
          amountExGstCents: price.exGstCents,
          gstCents: price.gstCents,
          amountIncGstCents: price.incGstCents,
          provider: card.provider,
          createdAt: this.clock.now(),
          actor: { email: actor.email, userId: actor.userId, ip: actor.ip },
        },
        tx,
      );
      // Another submission of the same form inserted first (it committed while we waited on its key).
      if (!purchase) return { purchase: (await this.repo.byRequestKey(actor.accountId, requestKey, tx))!, first: false };
      // No audit entry yet: the settler writes it with the outcome (bought, declined, held), naming this actor.
      return { purchase, first: true };
    });
    if (!started.first) return this.runner.waitOrSettle(started.purchase.id);
    return this.runner.settleOrUnavailable(started.purchase.id);
  }

  /** A purchase of the account (the page showing its outcome). */
  async get(accountId: number, purchaseId: number): Promise<Purchase> {
    const purchase = await this.repo.byIdInAccount(accountId, purchaseId);
    if (!purchase) throw failure('purchaseNotFound', purchaseId);
    return purchase;
  }
}
