import Stripe from 'stripe';
import { CardDetails, CardRejected, ChargeOutcome, ChargeRequest, NewCard, PaymentProvider, PaymentProviderUnavailable } from './payment-provider';

/**
 * Stripe: the account is a Customer, saved cards are PaymentMethods attached to it, and a purchase is a
 * PaymentIntent confirmed off-session. Every call that creates something carries an idempotency key
 * (the charge's is derived from our purchase id), so repeating it after a crash or a lost answer
 * replays Stripe's first result instead of charging again. Network retries are ours (the reconciler),
 * not the SDK's.
 */
export class StripePaymentProvider extends PaymentProvider {
  readonly name = 'stripe' as const;
  readonly real = true;
  private readonly stripe: Stripe;

  constructor(secretKey: string, apiBase?: string) {
    super();
    const base = apiBase ? new URL(apiBase) : undefined;
    this.stripe = new Stripe(secretKey, {
      maxNetworkRetries: 0,
      timeout: 20_000,
      telemetry: false,
      ...(base ? { host: base.hostname, port: base.port || (base.protocol === 'https:' ? 443 : 80), protocol: base.protocol === 'https:' ? 'https' : 'http' } : {}),
    });
  }

  async createCustomer(input: { accountId: number; name: string }): Promise<string> {
    const customer = await this.call(() =>
      this.stripe.customers.create({ name: input.name, metadata: { account_id: String(input.accountId) } }, { idempotencyKey: `customer-account-${input.accountId}` }),
    );
    return customer.id;
  }

  async saveCard(customerId: string, card: NewCard): Promise<CardDetails> {
    if (!('paymentMethodId' in card)) throw new CardRejected('Stripe saves cards entered in its own form; card numbers never reach us');
    let method: Stripe.PaymentMethod;
    try {
      method = await this.stripe.paymentMethods.attach(card.paymentMethodId, { customer: customerId });
    } catch (err) {
      if (err instanceof Stripe.errors.StripeCardError || err instanceof Stripe.errors.StripeInvalidRequestError) throw new CardRejected(err.message);
      throw new PaymentProviderUnavailable((err as Error).message);
    }
    if (!method.card) throw new CardRejected('Only cards can be saved');
    return { paymentMethodId: method.id, brand: method.card.brand, last4: method.card.last4, expMonth: method.card.exp_month, expYear: method.card.exp_year };
  }

  async removeCard(paymentMethodId: string): Promise<void> {
    await this.call(() => this.stripe.paymentMethods.detach(paymentMethodId));
  }

  async charge(request: ChargeRequest): Promise<ChargeOutcome> {
    let intent: Stripe.PaymentIntent;
    try {
      intent = await this.stripe.paymentIntents.create(
        {
          amount: request.amountCents,
          currency: 'aud',
          customer: request.customerId,
          payment_method: request.paymentMethodId,
          off_session: true,
          confirm: true,
          description: request.description,
          metadata: request.metadata,
        },
        { idempotencyKey: request.idempotencyKey },
      );
    } catch (err) {
      if (err instanceof Stripe.errors.StripeCardError) {
        const raw = err.raw as { payment_intent?: { id?: string } } | undefined;
        return { outcome: 'declined', paymentId: raw?.payment_intent?.id ?? null, reason: err.decline_code ?? err.code ?? 'card_declined' };
      }
      throw new PaymentProviderUnavailable((err as Error).message);
    }
    if (intent.status === 'succeeded') return intent.review ? { outcome: 'held', paymentId: intent.id } : { outcome: 'succeeded', paymentId: intent.id };
    if (intent.status === 'requires_payment_method' || intent.status === 'canceled') return { outcome: 'declined', paymentId: intent.id, reason: intent.status };
    // processing, requires_action…: not settled yet; asking again with the same key tells.
    throw new PaymentProviderUnavailable(`payment intent ${intent.id} is ${intent.status}`);
  }

  async refund(paymentId: string, idempotencyKey: string): Promise<void> {
    await this.call(() => this.stripe.refunds.create({ payment_intent: paymentId }, { idempotencyKey }));
  }

  private async call<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      throw new PaymentProviderUnavailable((err as Error).message);
    }
  }
}
