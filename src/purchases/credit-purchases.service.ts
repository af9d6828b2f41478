import { Injectable } from '@nestjs/common';
import type { Caller } from '../common/auth/authenticated-request';
import type { IdempotencyClaim } from '../idempotency/idempotency.service';
import { fieldsOf, parseCardLast4, parseCredits } from './purchase-input';
import { PurchaseRunner } from './purchase-runner.service';
import { priceCredits } from './pricing';

/** POST /v1/credit-purchases: credits by the supplement's tiers plus GST, charged to a saved card, landed through the ledger. */
@Injectable()
export class CreditPurchasesService {
  constructor(private readonly runner: PurchaseRunner) {}

  buy(caller: Caller, body: unknown, claim: IdempotencyClaim | undefined): Promise<object> {
    return this.runner.run(caller, claim, async () => {
      const fields = fieldsOf(body);
      const credits = parseCredits(fields.credits);
      const cardLast4 = parseCardLast4(fields.card_last4);
      return { kind: 'credits', credits, number: null, price: priceCredits(credits), cardLast4 };
    });
  }
}
