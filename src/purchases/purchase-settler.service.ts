import { Injectable } from '@nestjs/common';
import { failure } from '../common/errors/error-catalogue';
import { Clock } from '../common/time/clock';
import { Tx, UnitOfWork } from '../database/unit-of-work';
import { IdempotencyService } from '../idempotency/idempotency.service';
import { CardsService } from '../payments/cards.service';
import type { ChargeOutcome } from '../payments/payment-provider';
import { InvoiceMailer } from './invoice-mailer.service';
import { PurchaseAudit } from './purchase-audit.service';
import { chargeDescription, type PurchaseHandler } from './purchase-handler';
import { PurchaseHandlers } from './purchase-handlers';
import type { Purchase } from './purchase.entity';
import { PurchasesRepository } from './purchases.repository';

/** The provider's idempotency key of a purchase's charge: derived from our id, so every attempt is the same charge. */
export const chargeKey = (purchaseId: number) => `purchase-${purchaseId}-charge`;

/**
 * Moves a purchase through its states, each step one conditional UPDATE in its own transaction:
 * created → (provider charge) → charged | declined | held; charged → fulfilled. Safe to run from any
 * number of processes at once (the first request, its retries, the reconciler): the provider answers
 * the same charge for the same key, and only one process makes each step. Each outcome's audit entry
 * (PurchaseAudit) is written in the step that records it.
 */
@Injectable()
export class PurchaseSettler {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly repo: PurchasesRepository,
    private readonly cards: CardsService,
    private readonly idempotency: IdempotencyService,
    private readonly handlers: PurchaseHandlers,
    private readonly invoices: InvoiceMailer,
    private readonly audit: PurchaseAudit,
    private readonly clock: Clock,
  ) {}

  /** Settles as far as it can; throws PaymentProviderUnavailable when the provider cannot say (the purchase stays as it was). */
  async settle(id: number): Promise<Purchase> {
    let purchase = await this.mustGet(id);
    if (purchase.state === 'created') {
      const card = await this.cards.byId(purchase.accountId, purchase.cardId);
      const outcome: ChargeOutcome =
        card && !card.removedAt
          ? await this.cards.charge(card, {
              amountCents: purchase.amountIncGstCents,
              idempotencyKey: chargeKey(purchase.id),
              description: chargeDescription(purchase),
              metadata: { purchase_id: String(purchase.id), account_id: String(purchase.accountId), invoice_number: `INV-${String(purchase.id).padStart(8, '0')}` },
            })
          : { outcome: 'declined', paymentId: null, reason: 'card_missing' };
      purchase = await this.recordCharge(purchase, outcome);
    }
    if (purchase.state === 'charged') purchase = await this.fulfil(purchase);
    return purchase;
  }

  /** Operator: a payment held for review is released: the purchase is fulfilled as if it had succeeded. */
  async release(id: number): Promise<Purchase> {
    const held = await this.mustGet(id);
    if (held.state !== 'held') throw failure('purchaseNotHeld', id, held.state);
    const moved = await this.uow.run(async (tx) => {
      const p = await this.repo.transition(id, ['held'], 'fulfilled', this.clock.now(), {}, tx);
      if (p) {
        await this.handler(p).fulfil(p, tx);
        await this.audit.reviewed(p, tx);
      }
      return p;
    });
    if (!moved) throw failure('purchaseNotHeld', id, (await this.mustGet(id)).state);
    return moved;
  }

  /** Operator: a held payment is refused: refunded at the provider in full, and what it reserved is given back. */
  async refund(id: number): Promise<Purchase> {
    const held = await this.mustGet(id);
    if (held.state !== 'held') throw failure('purchaseNotHeld', id, held.state);
    if (held.providerPaymentId) await this.cards.refund(held.providerPaymentId, `purchase-${id}-refund`);
    const moved = await this.uow.run(async (tx) => {
      const p = await this.repo.transition(id, ['held'], 'refunded', this.clock.now(), {}, tx);
      if (p) {
        await this.handler(p).release(p, tx);
        await this.audit.reviewed(p, tx);
      }
      return p;
    });
    if (!moved) throw failure('purchaseNotHeld', id, (await this.mustGet(id)).state);
    return moved;
  }

  private async recordCharge(purchase: Purchase, outcome: ChargeOutcome): Promise<Purchase> {
    const moved = await this.uow.run(async (tx) => {
      const now = this.clock.now();
      if (outcome.outcome === 'succeeded') {
        return this.repo.transition(purchase.id, ['created'], 'charged', now, { providerPaymentId: outcome.paymentId, invoice: true }, tx);
      }
      if (outcome.outcome === 'held') {
        const p = await this.repo.transition(purchase.id, ['created'], 'held', now, { providerPaymentId: outcome.paymentId, invoice: true }, tx);
        if (p) {
          await this.answer(p, tx);
          await this.audit.settled(p, tx);
        }
        return p;
      }
      const p = await this.repo.transition(purchase.id, ['created'], 'declined', now, { providerPaymentId: outcome.paymentId }, tx);
      if (p) {
        await this.handler(p).release(p, tx);
        await this.store(p, tx, 402, JSON.stringify({ error: failure('paymentDeclined').message }));
        await this.audit.settled(p, tx);
      }
      return p;
    });
    if (!moved) return this.mustGet(purchase.id);
    if (moved.state === 'held') this.invoices.sendSoon(moved.id);
    if (moved.state !== 'charged') await this.handler(moved).settled?.(moved);
    return moved;
  }

  private async fulfil(purchase: Purchase): Promise<Purchase> {
    const moved = await this.uow.run(async (tx) => {
      const p = await this.repo.transition(purchase.id, ['charged'], 'fulfilled', this.clock.now(), {}, tx);
      if (!p) return null;
      await this.handler(p).fulfil(p, tx);
      await this.answer(p, tx);
      await this.audit.settled(p, tx);
      return p;
    });
    if (!moved) return this.mustGet(purchase.id);
    this.invoices.sendSoon(moved.id);
    await this.handler(moved).settled?.(moved);
    return moved;
  }

  /** Stores the 200 answer under the purchase's Idempotency-Key, in the transaction that settles it. */
  private async answer(p: Purchase, tx: Tx): Promise<void> {
    const body = await this.handler(p).response(p, tx);
    if (body) await this.store(p, tx, 200, JSON.stringify(body));
  }

  private async store(p: Purchase, tx: Tx, status: number, body: string): Promise<void> {
    if (p.apiKeyId === null || !p.idempotencyKey || !p.fingerprint) return;
    const claim = { apiKeyId: p.apiKeyId, key: p.idempotencyKey, fingerprint: p.fingerprint };
    await this.idempotency.claim(claim, tx);
    await this.idempotency.complete(claim, tx, status, body);
  }

  private handler(p: Purchase): PurchaseHandler {
    return this.handlers.of(p.kind);
  }

  private async mustGet(id: number): Promise<Purchase> {
    const p = await this.repo.byId(id);
    if (!p) throw failure('purchaseNotFound', id);
    return p;
  }
}
