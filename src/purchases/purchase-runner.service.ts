import { Injectable, Logger } from '@nestjs/common';
import { digestsEqual } from '../accounts/secrets';
import { ApiKeysService } from '../accounts/api-keys.service';
import type { ApiKey } from '../accounts/api-key.entity';
import type { Caller } from '../common/auth/authenticated-request';
import { failure, failureBecause } from '../common/errors/error-catalogue';
import { Clock } from '../common/time/clock';
import { AppConfig } from '../config/app-config';
import { Tx, UnitOfWork } from '../database/unit-of-work';
import { IdempotencyClaim, IdempotencyKeyTaken, IdempotencyService } from '../idempotency/idempotency.service';
import { CardsService } from '../payments/cards.service';
import { PaymentProviderUnavailable } from '../payments/payment-provider';
import { dollars, type Price } from './pricing';
import type { Purchase, PurchaseKind } from './purchase.entity';
import { PurchaseSettler } from './purchase-settler.service';
import type { PurchaseResult } from './purchases.mapper';
import { PurchasesRepository } from './purchases.repository';

const DAY_MS = 24 * 60 * 60 * 1000;
const POLL_MS = 100;

/** What a request asks to buy, decided inside the purchase's first transaction (after the key's checks). */
export interface Order {
  kind: Exclude<PurchaseKind, 'renewal'>;
  credits: number | null;
  number: string | null;
  price: Price;
  cardLast4: string | undefined;
}

/**
 * Runs a purchase by API: the first transaction checks the key (switch, daily limit over any 24 hours,
 * checked and reserved under the key's row lock), chooses the card and records the purchase; the
 * provider is called between commits; the settler records the outcome and fulfils. A request repeating
 * an Idempotency-Key in progress waits for it, then answers its stored response.
 */
@Injectable()
export class PurchaseRunner {
  private readonly logger = new Logger(PurchaseRunner.name);

  constructor(
    private readonly uow: UnitOfWork,
    private readonly repo: PurchasesRepository,
    private readonly apiKeys: ApiKeysService,
    private readonly cards: CardsService,
    private readonly idempotency: IdempotencyService,
    private readonly settler: PurchaseSettler,
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  /**
   * `decide` reserves what the (validated) request needs, an inventory number, inside the first
   * transaction, after the key's switch is checked again under its lock; it answers the order.
   */
  async run<R extends PurchaseResult>(caller: Caller, claim: IdempotencyClaim | undefined, decide: (key: ApiKey, tx: Tx) => Promise<Order>): Promise<R> {
    if (!claim) throw failure('idempotencyKeyRequired');
    const started = await this.uow.run(async (tx) => {
      const key = await this.apiKeys.lockOnAccount(caller.accountId, caller.apiKeyId, tx);
      const now = this.clock.now();
      const existing = await this.repo.findByIdempotencyKey(key.id, claim.key, new Date(now.getTime() - this.config.idempotencyTtlMs), tx);
      if (existing) return { purchase: existing, existing: true };
      if (!key.purchasesEnabled) throw failure('purchasesNotEnabled');
      const order = await decide(key, tx);
      const card = await this.cards.choose(caller.accountId, order.cardLast4, tx);
      const spent = await this.repo.spentSince(key.id, new Date(now.getTime() - DAY_MS), tx);
      const remaining = key.dailyLimitCents - spent;
      if (order.price.incGstCents > remaining) throw failure('dailyLimitExceeded', dollars(Math.max(0, remaining)));
      await this.repo.forgetIdempotencyKey(key.id, claim.key, tx);
      const purchase = await this.repo.insert(
        {
          accountId: caller.accountId,
          apiKeyId: key.id,
          apiKeyLabel: key.label,
          apiUsername: key.username,
          idempotencyKey: claim.key,
          fingerprint: claim.fingerprint,
          kind: order.kind,
          credits: order.credits,
          number: order.number,
          cardId: card.id,
          cardLast4: card.last4,
          amountExGstCents: order.price.exGstCents,
          gstCents: order.price.gstCents,
          amountIncGstCents: order.price.incGstCents,
          provider: card.provider,
          createdAt: now,
        },
        tx,
      );
      return { purchase, existing: false };
    });

    if (started.existing) {
      if (!started.purchase.fingerprint || !digestsEqual(started.purchase.fingerprint, claim.fingerprint)) throw failure('idempotencyKeyReused');
      await this.waitOrSettle(started.purchase.id);
      // Settled by the first request (or by us): answer its stored response, as a replay.
      throw new IdempotencyKeyTaken();
    }
    const settled = await this.settleOrUnavailable(started.purchase.id);
    const stored = await this.idempotency.findReplay(claim);
    if (settled.state === 'declined') throw failure('paymentDeclined');
    if (!stored) throw new Error(`purchase ${settled.id} settled as ${settled.state} without a stored response`);
    // The stored answer, not one built again: the first response and every replay say the same (the balance at settlement).
    return JSON.parse(stored.body) as R;
  }

  /** Waits for the request that started the purchase; settles it here when that takes too long (it may have crashed). */
  async waitOrSettle(id: number): Promise<Purchase> {
    const deadline = Date.now() + this.config.purchaseWaitMs;
    for (;;) {
      const current = await this.repo.byId(id);
      if (!current) throw new Error(`purchase ${id} vanished`);
      if (current.state !== 'created' && current.state !== 'charged') return current;
      if (Date.now() >= deadline) return this.settleOrUnavailable(id);
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }

  /** Settles now; a provider that cannot say whether it charged answers 503 and leaves the purchase to a retry or the reconciler. */
  async settleOrUnavailable(id: number): Promise<Purchase> {
    try {
      return await this.settler.settle(id);
    } catch (err) {
      if (err instanceof PaymentProviderUnavailable) {
        // Unknown whether it charged: the purchase stays unsettled; a retry with the same key or the reconciler finishes it.
        this.logger.warn({ msg: 'payment provider unavailable; purchase left for the reconciler', purchase_id: id, err: err.message });
        throw failureBecause(err, 'serviceUnavailable');
      }
      throw err;
    }
  }
}
