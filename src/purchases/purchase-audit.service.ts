import { Injectable } from '@nestjs/common';
import { Tx } from '../database/unit-of-work';
import { CardsService } from '../payments/cards.service';
import { operatorActor, type Actor } from '../users/actor';
import { AuditLogService, type AuditAction } from '../users/audit-log.service';
import { dollars } from './pricing';
import type { Purchase } from './purchase.entity';
import { AUTO_RECHARGE_PREFIX } from './request-keys';

/**
 * The audit log's entry for what a credit purchase made without an API key came to (a person on the
 * Billing page, or auto-recharge), written in the transaction that records that outcome: so an entry exists
 * exactly when the outcome does, and a payment that was declined or held never reads as credits bought.
 * A declined attempt is recorded too (the card was tried at the provider, or had been removed before it could
 * be, which the buyer was also told as a decline): the purchase stays on the account
 * (declined), and for auto-recharge it is what switched auto-recharge off.
 */
@Injectable()
export class PurchaseAudit {
  constructor(
    private readonly cards: CardsService,
    private readonly audit: AuditLogService,
  ) {}

  async settled(p: Purchase, tx: Tx): Promise<void> {
    // Purchases by API key are not in the audit log (their invoice names the key); renewals have no actor.
    if (p.actor === null || p.kind !== 'credits') return;
    const action = actionOf(p);
    if (!action) return;
    const actor: Actor = { accountId: p.accountId, userId: p.actorUserId, email: p.actor, ip: p.actorIp, isOwner: false, permissions: [] };
    await this.audit.record(actor, action, await this.detailOf(p, tx), tx);
  }

  /**
   * An operator's decision on a payment held for review (released: the credits are added; refunded): the
   * operator made it, so it is theirs in the log, naming who bought. The buyer's own entry is the hold.
   */
  async reviewed(p: Purchase, tx: Tx): Promise<void> {
    if (p.actor === null || p.kind !== 'credits') return;
    const action: AuditAction = p.state === 'refunded' ? 'billing.credit_purchase_refunded' : 'billing.credit_purchase_released';
    await this.audit.record(operatorActor(p.accountId), action, `${await this.detailOf(p, tx)}, bought by ${p.actor}`, tx);
  }

  private async detailOf(p: Purchase, tx: Tx): Promise<string> {
    const card = await this.cards.byId(p.accountId, p.cardId, tx);
    return `${p.credits} credits, A$${dollars(p.amountIncGstCents)} inc. GST, ${card?.brand ?? 'card'} ending in ${p.cardLast4}`;
  }
}

function actionOf(p: Purchase): AuditAction | null {
  switch (p.state) {
    case 'fulfilled':
      return p.requestKey?.startsWith(AUTO_RECHARGE_PREFIX) ? 'billing.auto_recharged' : 'billing.credits_bought';
    case 'declined':
      return 'billing.credit_purchase_declined';
    case 'held':
      return 'billing.credit_purchase_held';
    default:
      // created, charged: not an outcome yet; refunded: only by an operator's review (reviewed).
      return null;
  }
}
