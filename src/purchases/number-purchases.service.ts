import { Injectable } from '@nestjs/common';
import type { Caller } from '../common/auth/authenticated-request';
import { failure } from '../common/errors/error-catalogue';
import { Clock } from '../common/time/clock';
import type { IdempotencyClaim } from '../idempotency/idempotency.service';
import { NumberInventoryService } from '../numbers/number-inventory.service';
import { fieldsOf, parseCardLast4, parseContains, parseNumber } from './purchase-input';
import { PurchaseRunner } from './purchase-runner.service';
import { withGst } from './pricing';
import { toAvailableNumbers, toDedicatedNumbers } from './purchases.mapper';
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

  async available(contains: unknown, limit: number): Promise<ReturnType<typeof toAvailableNumbers>> {
    return toAvailableNumbers(await this.inventory.listAvailable(parseContains(contains), limit));
  }

  async list(accountId: number): Promise<ReturnType<typeof toDedicatedNumbers>> {
    return toDedicatedNumbers(await this.subscriptions.listForAccount(accountId));
  }

  /**
   * Buys a number: the free number must be claimed first; the number is taken from the inventory in
   * the purchase's first transaction (one conditional UPDATE, so one buyer wins), given back if the
   * charge is declined, and an active `dedicated` sender once paid.
   */
  buy(caller: Caller, body: unknown, claim: IdempotencyClaim | undefined): Promise<object> {
    return this.runner.run(caller, claim, async (_key, tx) => {
      const fields = fieldsOf(body);
      const number = parseNumber(fields.number);
      const cardLast4 = parseCardLast4(fields.card_last4);
      if (!(await this.inventory.freeClaimOf(caller.accountId, tx))) throw failure('freeNumberFirst');
      const priceCents = await this.inventory.reserve(caller.accountId, number, this.clock.now(), tx);
      if (priceCents === null) throw failure('numberNotAvailable');
      return { kind: 'number', credits: null, number, price: withGst(priceCents), cardLast4 };
    });
  }
}
