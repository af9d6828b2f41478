import type { ProviderName } from './payment-card.entity';

/** A card as the provider saved it: never the number, only what identifies and describes it. */
export interface CardDetails {
  paymentMethodId: string;
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
}

/** What to save: a test card number (the simulated provider only) or a card the provider already holds (a Stripe PaymentMethod). */
export type NewCard = { cardNumber: string; expMonth?: number; expYear?: number } | { paymentMethodId: string };

export interface ChargeRequest {
  customerId: string;
  paymentMethodId: string;
  amountCents: number;
  /** The provider's idempotency key, derived from our purchase id: the same purchase is never charged twice. */
  idempotencyKey: string;
  description: string;
  metadata: Record<string, string>;
}

export type ChargeOutcome =
  | { outcome: 'succeeded'; paymentId: string }
  /** Charged, but the provider holds the payment for review: nothing is delivered until an operator releases it. */
  | { outcome: 'held'; paymentId: string }
  | { outcome: 'declined'; paymentId: string | null; reason: string };

/** The provider could not be reached or answered with a failure of its own: whether it charged is unknown until asked again. */
export class PaymentProviderUnavailable extends Error {}

/** The card was refused when saving it (not a test card, expired, declined by the provider). */
export class CardRejected extends Error {}

/**
 * The payment provider port. Adapters: Stripe (customers, saved PaymentMethods, PaymentIntents confirmed
 * off-session) and the simulated provider (development and test accounts, Stripe's test cards).
 */
export abstract class PaymentProvider {
  abstract readonly name: ProviderName;

  /** True for a real provider: operator shortcuts such as `card:add` are refused. */
  abstract readonly real: boolean;

  abstract createCustomer(input: { accountId: number; name: string }): Promise<string>;

  abstract saveCard(customerId: string, card: NewCard): Promise<CardDetails>;

  abstract removeCard(paymentMethodId: string): Promise<void>;

  /** Charges a saved card off-session in AUD. Repeating it with the same idempotency key answers the first outcome. */
  abstract charge(request: ChargeRequest): Promise<ChargeOutcome>;

  /** Refunds a payment in full (a held payment the operator refuses). */
  abstract refund(paymentId: string, idempotencyKey: string): Promise<void>;
}
