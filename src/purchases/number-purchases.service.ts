import { Injectable } from '@nestjs/common';
import type { Caller } from '../common/auth/authenticated-request';
import { failure } from '../common/errors/error-catalogue';
import { Clock } from '../common/time/clock';
import type { IdempotencyClaim } from '../idempotency/idempotency.service';
import { NumberInventoryService } from '../numbers/number-inventory.service';
import type { BuyNumberDto } from './dto/purchase.dto';
import { PurchaseRunner } from './purchase-runner.service';
import { withGst } from './pricing';
import { toAvailableNumbers, toDedicatedNumbers, type NumberPurchaseResult } from './purchases.mapper';
import { SubscriptionsRepository } from './subscriptions.repository';

/** Dedicated numbers by API: what is for sale, buying one for 12 months, and the account's numbers. */
@Injectable()
export class NumberPurchasesService {
  constructor(
    private readonly runner: PurchaseRunner,
    private readonly inventory: NumberInventoryService,
    private readonly subscriptions: SubscriptionsRepository,
    private readonly clock: Clock,
  ) {}

  async available(contains: string | undefined, limit: number): Promise<ReturnType<typeof toAvailableNumbers>> {
    return toAvailableNumbers(await this.inventory.listAvailable(contains ?? '', limit));
  }

  async list(accountId: number): Promise<ReturnType<typeof toDedicatedNumbers>> {
    return toDedicatedNumbers(await this.subscriptions.listForAccount(accountId));
  }

  /**
   * Buys a number: the free number must be claimed first; the number is taken from the inventory in
   * the purchase's first transaction (one conditional UPDATE, so one buyer wins), given back if the
   * charge is declined, and an active `dedicated` sender once paid.
   */
  buy(caller: Caller, input: BuyNumberDto, claim: IdempotencyClaim | undefined): Promise<NumberPurchaseResult> {
    return this.runner.run<NumberPurchaseResult>(caller, claim, async (_key, tx) => {
      const { number } = input;
      if (!(await this.inventory.freeClaimOf(caller.accountId, tx))) throw failure('freeNumberFirst');
      const priceCents = await this.inventory.reserve(caller.accountId, number, this.clock.now(), tx);
      if (priceCents === null) throw failure('numberNotAvailable');
      return { kind: 'number', credits: null, number, price: withGst(priceCents), cardLast4: input.card_last4 || undefined };
    });
  }
}
