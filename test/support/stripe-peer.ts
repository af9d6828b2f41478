import { randomBytes } from 'node:crypto';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Stripe's documented test PaymentMethods this peer knows, with what a charge to each does. */
const TEST_METHODS: Record<string, { brand: string; last4: string; behaviour: 'succeeds' | 'declined' | 'insufficient_funds' | 'review' }> = {
  pm_card_visa: { brand: 'visa', last4: '4242', behaviour: 'succeeds' },
  pm_card_mastercard: { brand: 'mastercard', last4: '4444', behaviour: 'succeeds' },
  pm_card_chargeDeclined: { brand: 'visa', last4: '0002', behaviour: 'declined' },
  pm_card_chargeDeclinedInsufficientFunds: { brand: 'visa', last4: '9995', behaviour: 'insufficient_funds' },
  pm_card_riskLevelElevated: { brand: 'visa', last4: '9235', behaviour: 'review' },
};

export interface RecordedIntent {
  id: string;
  idempotencyKey: string;
  params: Record<string, string>;
  status: string;
}

interface Stored {
  status: number;
  body: unknown;
}

const id = (prefix: string) => `${prefix}_${randomBytes(10).toString('hex')}`;

/**
 * A Stripe-compatible HTTP peer on loopback for the endpoints our adapter uses (customers, attaching and
 * detaching PaymentMethods, PaymentIntents confirmed off-session, refunds), driven by the real `stripe`
 * SDK through its host/port/protocol options. Like Stripe, it replays the first response for a repeated
 * Idempotency-Key. `dropAfterCharge()` makes the next charge happen and then the connection drop before
 * the answer: a network error mid-charge.
 */
export class StripePeer {
  readonly intents: RecordedIntent[] = [];
  readonly refunds: Array<{ paymentIntent: string; idempotencyKey: string }> = [];
  /** Every request, for assertions on what the SDK sent. */
  readonly requests: Array<{ method: string; path: string; idempotencyKey: string | undefined; authorization: string | undefined }> = [];
  private readonly replies = new Map<string, Stored>();
  private readonly customers = new Map<string, string>();
  private drops = 0;
  private failures = 0;
  private server?: Server;

  async start(): Promise<void> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }

  /**
   * The next `times` PaymentIntent requests are processed (the first one charges) and then their
   * connection drops before the answer. The SDK retries a closed connection once by itself (with the
   * same idempotency key), so 2 makes the error reach the caller.
   */
  dropAfterCharge(times = 2): void {
    this.drops = times;
  }

  /**
   * The next `times` PaymentIntent requests are refused with a 500 before anything is charged or
   * remembered (Stripe having an outage): a later request with the same key charges afresh.
   */
  failCharges(times: number): void {
    this.failures = times;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const params = Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
    const key = req.headers['idempotency-key'] as string | undefined;
    const path = (req.url ?? '').split('?')[0];
    this.requests.push({ method: req.method ?? '', path, idempotencyKey: key, authorization: req.headers.authorization });
    if (this.failures > 0 && path === '/v1/payment_intents') {
      this.failures--;
      res.writeHead(500, { 'content-type': 'application/json', 'request-id': id('req') });
      res.end(JSON.stringify({ error: { type: 'api_error', message: 'An unknown error occurred' } }));
      return;
    }
    const replayKey = key ? `${req.method} ${path} ${key}` : undefined;
    const stored = replayKey ? this.replies.get(replayKey) : undefined;
    const reply = stored ?? this.route(req.method ?? '', path, params, key ?? '');
    if (replayKey && !stored) this.replies.set(replayKey, reply);
    if (this.drops > 0 && path === '/v1/payment_intents') {
      this.drops--;
      req.socket.destroy();
      return;
    }
    res.writeHead(reply.status, { 'content-type': 'application/json', 'request-id': id('req'), ...(stored ? { 'idempotent-replayed': 'true' } : {}) });
    res.end(JSON.stringify(reply.body));
  }

  private route(method: string, path: string, params: Record<string, string>, key: string): Stored {
    if (method === 'POST' && path === '/v1/customers') {
      const customer = id('cus');
      this.customers.set(customer, params.name ?? '');
      return { status: 200, body: { id: customer, object: 'customer', name: params.name ?? null, metadata: metadataOf(params) } };
    }
    const attach = /^\/v1\/payment_methods\/([^/]+)\/(attach|detach)$/.exec(path);
    if (method === 'POST' && attach) {
      const known = TEST_METHODS[attach[1]];
      if (!known) return error(400, 'invalid_request_error', 'resource_missing', `No such PaymentMethod: '${attach[1]}'`);
      if (attach[2] === 'attach' && !this.customers.has(params.customer)) return error(400, 'invalid_request_error', 'resource_missing', `No such customer: '${params.customer}'`);
      return {
        status: 200,
        body: {
          id: attach[1],
          object: 'payment_method',
          type: 'card',
          customer: attach[2] === 'attach' ? params.customer : null,
          card: { brand: known.brand, last4: known.last4, exp_month: 12, exp_year: 2034, funding: 'credit' },
        },
      };
    }
    if (method === 'POST' && path === '/v1/payment_intents') return this.charge(params, key);
    if (method === 'POST' && path === '/v1/refunds') {
      this.refunds.push({ paymentIntent: params.payment_intent, idempotencyKey: key });
      return { status: 200, body: { id: id('re'), object: 'refund', payment_intent: params.payment_intent, status: 'succeeded' } };
    }
    return error(404, 'invalid_request_error', 'resource_missing', `Unrecognized request URL (${method}: ${path})`);
  }

  private charge(params: Record<string, string>, key: string): Stored {
    const method = TEST_METHODS[params.payment_method];
    if (!method) return error(400, 'invalid_request_error', 'resource_missing', `No such PaymentMethod: '${params.payment_method}'`);
    const intent = {
      id: id('pi'),
      idempotencyKey: key,
      params,
      status: method.behaviour === 'succeeds' || method.behaviour === 'review' ? 'succeeded' : 'requires_payment_method',
    };
    this.intents.push(intent);
    const body = {
      id: intent.id,
      object: 'payment_intent',
      amount: Number(params.amount),
      currency: params.currency,
      customer: params.customer,
      payment_method: params.payment_method,
      status: intent.status,
      review: method.behaviour === 'review' ? id('prv') : null,
      metadata: metadataOf(params),
    };
    if (intent.status === 'succeeded') return { status: 200, body };
    const decline = method.behaviour === 'insufficient_funds' ? 'insufficient_funds' : 'generic_decline';
    return {
      status: 402,
      body: { error: { type: 'card_error', code: 'card_declined', decline_code: decline, message: 'Your card was declined.', payment_intent: body } },
    };
  }
}

function metadataOf(params: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(params)
      .filter(([k]) => k.startsWith('metadata['))
      .map(([k, v]) => [k.slice(9, -1), v]),
  );
}

function error(status: number, type: string, code: string, message: string): Stored {
  return { status, body: { error: { type, code, message } } };
}
