import { Injectable } from '@nestjs/common';
import { CreditPurchaseHandler } from './credit-purchase.handler';
import { NumberPurchaseHandler } from './number-purchase.handler';
import type { PurchaseHandler } from './purchase-handler';
import type { PurchaseKind } from './purchase.entity';
import { RenewalHandler } from './renewal.handler';

/** The handler of each kind of purchase. */
@Injectable()
export class PurchaseHandlers {
  private readonly byKind: Record<PurchaseKind, PurchaseHandler>;

  constructor(credits: CreditPurchaseHandler, numbers: NumberPurchaseHandler, renewals: RenewalHandler) {
    this.byKind = { credits, number: numbers, renewal: renewals };
  }

  of(kind: PurchaseKind): PurchaseHandler {
    return this.byKind[kind];
  }
}
