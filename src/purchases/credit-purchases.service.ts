import { Injectable } from '@nestjs/common';
import type { Caller } from '../common/auth/authenticated-request';
import type { IdempotencyClaim } from '../idempotency/idempotency.service';
import type { BuyCreditsDto } from './dto/purchase.dto';
import { PurchaseRunner } from './purchase-runner.service';
import { priceCredits } from './pricing';
import type { CreditPurchaseResult } from './purchases.mapper';

/** POST /v1/credit-purchases: credits by the supplement's tiers plus GST, charged to a saved card, landed through the ledger. */
@Injectable()
export class CreditPurchasesService {
  constructor(private readonly runner: PurchaseRunner) {}

  buy(caller: Caller, input: BuyCreditsDto, claim: IdempotencyClaim | undefined): Promise<CreditPurchaseResult> {
    return this.runner.run<CreditPurchaseResult>(caller, claim, async () => ({
      kind: 'credits',
      credits: input.credits,
      number: null,
      price: priceCredits(input.credits),
      cardLast4: input.card_last4 || undefined,
    }));
  }
}
