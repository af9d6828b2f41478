import { Injectable } from '@nestjs/common';
import { AccountsService } from '../accounts/accounts.service';
import { CreditsService } from '../billing/credits.service';
import { Tx } from '../database/unit-of-work';
import type { PurchaseHandler } from './purchase-handler';
import type { Purchase } from './purchase.entity';
import { toCreditPurchase, type CreditPurchaseResult } from './purchases.mapper';

/** Credits land through the ledger: one grant row referencing the purchase, in the transaction that fulfils it. */
@Injectable()
export class CreditPurchaseHandler implements PurchaseHandler {
  readonly kind = 'credits' as const;

  constructor(
    private readonly credits: CreditsService,
    private readonly accounts: AccountsService,
  ) {}

  async fulfil(p: Purchase, tx: Tx): Promise<void> {
    await this.credits.grant(p.accountId, p.credits! * 100, 'credit purchase', `purchase:${p.id}`, tx);
  }

  async release(): Promise<void> {}

  async response(p: Purchase, tx: Tx): Promise<CreditPurchaseResult> {
    const account = await this.accounts.get(p.accountId, tx);
    return toCreditPurchase(p, account.creditBalance);
  }
}
