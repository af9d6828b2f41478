import { Injectable } from '@nestjs/common';
import { failure, failureBecause } from '../common/errors/error-catalogue';
import { Tx } from '../database/unit-of-work';
import { CardsRepository } from './cards.repository';
import type { PaymentCard } from './payment-card.entity';
import { CardRejected, ChargeOutcome, NewCard, PaymentProvider, PaymentProviderUnavailable } from './payment-provider';
import { TEST_CARD_LIST } from './test-cards';

/** The account's saved cards at the configured provider, and charges against them. */
@Injectable()
export class CardsService {
  constructor(
    private readonly cards: CardsRepository,
    private readonly provider: PaymentProvider,
  ) {}

  get providerName(): string {
    return this.provider.name;
  }

  /** True when a real provider (Stripe) is configured. */
  get realProvider(): boolean {
    return this.provider.real;
  }

  list(accountId: number, tx?: Tx): Promise<PaymentCard[]> {
    return this.cards.listSaved(accountId, this.provider.name, tx);
  }

  async add(account: { id: number; name: string }, card: NewCard): Promise<PaymentCard> {
    let customerId = await this.cards.customerOf(account.id, this.provider.name);
    try {
      if (!customerId)
        customerId = await this.cards.saveCustomer(account.id, this.provider.name, await this.provider.createCustomer({ accountId: account.id, name: account.name }));
      const saved = await this.provider.saveCard(customerId, card);
      return await this.cards.insert(account.id, this.provider.name, saved);
    } catch (err) {
      if (err instanceof CardRejected)
        throw failureBecause(err, this.provider.real ? 'cardRejected' : 'notATestCard', ...((this.provider.real ? [err.message] : [TEST_CARD_LIST]) as [string]));
      if (err instanceof PaymentProviderUnavailable) throw failureBecause(err, 'serviceUnavailable');
      throw err;
    }
  }

  /** `card:add`: a test card for the simulated provider only. */
  async addTestCard(account: { id: number; name: string }, cardNumber: string): Promise<PaymentCard> {
    if (this.provider.real) throw failure('testCardsNeedSimulatedProvider');
    return this.add(account, { cardNumber });
  }

  async remove(accountId: number, cardId: number): Promise<PaymentCard> {
    const removed = await this.cards.markRemoved(accountId, cardId);
    if (!removed) throw failure('cardNotFound');
    await this.provider.removeCard(removed.paymentMethodId).catch(() => undefined);
    return removed;
  }

  /**
   * The card a purchase charges (interface: with one saved card that card; with more, the request names
   * the last 4 digits).
   */
  async choose(accountId: number, last4: string | undefined, tx: Tx): Promise<PaymentCard> {
    const saved = await this.list(accountId, tx);
    if (saved.length === 0) throw failure('noSavedCard');
    if (last4 === undefined) {
      if (saved.length > 1) throw failure('cardLast4Required');
      return saved[0];
    }
    const card = saved.find((c) => c.last4 === last4);
    if (!card) throw failure('noCardEndsIn', last4);
    return card;
  }

  async byId(accountId: number, cardId: number, tx?: Tx): Promise<PaymentCard | null> {
    return this.cards.byId(accountId, cardId, tx);
  }

  /** Charges the card; throws PaymentProviderUnavailable when the outcome is unknown (ask again with the same key). */
  async charge(card: PaymentCard, input: { amountCents: number; idempotencyKey: string; description: string; metadata: Record<string, string> }): Promise<ChargeOutcome> {
    const customerId = await this.cards.customerOf(card.accountId, card.provider);
    if (!customerId) return { outcome: 'declined', paymentId: null, reason: 'no_customer' };
    return this.provider.charge({ customerId, paymentMethodId: card.paymentMethodId, ...input });
  }

  refund(paymentId: string, idempotencyKey: string): Promise<void> {
    return this.provider.refund(paymentId, idempotencyKey);
  }
}
