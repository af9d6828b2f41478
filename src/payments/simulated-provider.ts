import { randomBytes } from 'node:crypto';
import type { Clock } from '../common/time/clock';
import { CardDetails, CardRejected, ChargeOutcome, ChargeRequest, NewCard, PaymentProvider } from './payment-provider';
import type { SimulatedPaymentsRepository } from './simulated-payments.repository';
import { testCard, TestCardBehaviour } from './test-cards';

const id = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;

/**
 * The built-in provider when no Stripe key is configured (development, tests, test accounts). Saved
 * cards are Stripe's documented test cards; the card's behaviour travels in its payment method id, and
 * payments are recorded in PostgreSQL under their idempotency key, so a repeated charge (a retry, a
 * crash, the reconciler) answers the first one exactly as Stripe does.
 */
export class SimulatedPaymentProvider extends PaymentProvider {
  readonly name = 'simulated' as const;
  readonly real = false;

  constructor(
    private readonly payments: SimulatedPaymentsRepository,
    private readonly clock: Clock,
  ) {
    super();
  }

  createCustomer(): Promise<string> {
    return Promise.resolve(id('simcus'));
  }

  saveCard(_customerId: string, card: NewCard): Promise<CardDetails> {
    if (!('cardNumber' in card)) return Promise.reject(new CardRejected('The simulated provider saves test card numbers only'));
    const test = testCard(card.cardNumber);
    if (!test) return Promise.reject(new CardRejected('Not a test card'));
    const year = this.clock.now().getUTCFullYear();
    return Promise.resolve({
      paymentMethodId: `${id('simpm')}_${test.behaviour}`,
      brand: test.brand,
      last4: test.number.slice(-4),
      expMonth: card.expMonth ?? 12,
      expYear: card.expYear ?? year + 3,
    });
  }

  removeCard(): Promise<void> {
    return Promise.resolve();
  }

  async charge(request: ChargeRequest): Promise<ChargeOutcome> {
    const behaviour = behaviourOf(request.paymentMethodId);
    const status = behaviour === 'succeeds' ? 'succeeded' : behaviour === 'held' ? 'held' : 'declined';
    const record = await this.payments.insertOrGet({
      id: id('simpi'),
      idempotencyKey: request.idempotencyKey,
      customerId: request.customerId,
      paymentMethodId: request.paymentMethodId,
      amountCents: request.amountCents,
      currency: 'aud',
      status,
      declineCode: status === 'declined' ? (behaviour === 'insufficient_funds' ? 'insufficient_funds' : 'generic_decline') : null,
    });
    if (record.status === 'declined') return { outcome: 'declined', paymentId: record.id, reason: record.declineCode ?? 'generic_decline' };
    return { outcome: record.status, paymentId: record.id };
  }

  async refund(paymentId: string): Promise<void> {
    await this.payments.markRefunded(paymentId);
  }
}

function behaviourOf(paymentMethodId: string): TestCardBehaviour | 'unknown' {
  const match = /_(succeeds|declined|insufficient_funds|held)$/.exec(paymentMethodId);
  return match ? (match[1] as TestCardBehaviour) : 'unknown';
}
