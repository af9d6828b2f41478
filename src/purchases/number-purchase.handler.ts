import { Injectable } from '@nestjs/common';
import { Tx } from '../database/unit-of-work';
import { NumberInventoryService } from '../numbers/number-inventory.service';
import { SendersService } from '../senders/senders.service';
import { addMonths, SUBSCRIPTION_MONTHS } from './months';
import type { PurchaseHandler } from './purchase-handler';
import type { Purchase } from './purchase.entity';
import { toNumberPurchase, type NumberPurchaseResult } from './purchases.mapper';
import { SubscriptionsRepository } from './subscriptions.repository';

/** A bought number: an active `dedicated` sender at once, for 12 months from the charge, renewing on the same card. */
@Injectable()
export class NumberPurchaseHandler implements PurchaseHandler {
  readonly kind = 'number' as const;

  constructor(
    private readonly subscriptions: SubscriptionsRepository,
    private readonly senders: SendersService,
    private readonly inventory: NumberInventoryService,
  ) {}

  async fulfil(p: Purchase, tx: Tx): Promise<void> {
    const purchasedAt = p.chargedAt ?? p.createdAt;
    await this.subscriptions.insert(
      { number: p.number!, accountId: p.accountId, purchaseId: p.id, cardId: p.cardId, apiKeyId: p.apiKeyId, purchasedAt, expiresAt: addMonths(purchasedAt, SUBSCRIPTION_MONTHS) },
      tx,
    );
    await this.senders.activate(p.accountId, p.number!, 'dedicated', '', tx);
  }

  async release(p: Purchase, tx: Tx): Promise<void> {
    await this.inventory.release(p.accountId, p.number!, tx);
  }

  async response(p: Purchase): Promise<NumberPurchaseResult> {
    const purchasedAt = p.chargedAt ?? p.createdAt;
    return toNumberPurchase(p, purchasedAt, addMonths(purchasedAt, SUBSCRIPTION_MONTHS));
  }
}
