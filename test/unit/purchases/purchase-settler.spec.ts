import { DomainError } from '../../../src/common/errors/domain-error';
import type { Clock } from '../../../src/common/time/clock';
import type { Tx, UnitOfWork } from '../../../src/database/unit-of-work';
import type { IdempotencyService } from '../../../src/idempotency/idempotency.service';
import type { CardsService } from '../../../src/payments/cards.service';
import { PaymentProviderUnavailable, type ChargeOutcome } from '../../../src/payments/payment-provider';
import type { InvoiceMailer } from '../../../src/purchases/invoice-mailer.service';
import type { PurchaseAudit } from '../../../src/purchases/purchase-audit.service';
import type { PurchaseHandler } from '../../../src/purchases/purchase-handler';
import type { PurchaseHandlers } from '../../../src/purchases/purchase-handlers';
import { chargeKey, PurchaseSettler } from '../../../src/purchases/purchase-settler.service';
import type { Purchase, PurchaseState } from '../../../src/purchases/purchase.entity';
import type { PurchasesRepository } from '../../../src/purchases/purchases.repository';

const TX = {} as Tx;

/** The purchases table as the state machine sees it: a conditional move from some states to one, or nothing. */
class FakePurchases {
  readonly rows = new Map<number, Purchase>();
  /** Runs before a transition reads the row: another process's step. */
  beforeTransition?: (id: number) => void;

  byId(id: number): Promise<Purchase | null> {
    const p = this.rows.get(id);
    return Promise.resolve(p ? { ...p } : null);
  }

  transition(id: number, from: readonly PurchaseState[], to: PurchaseState, at: Date, set: { providerPaymentId?: string | null; invoice?: boolean }): Promise<Purchase | null> {
    this.beforeTransition?.(id);
    const p = this.rows.get(id);
    if (!p || !from.includes(p.state)) return Promise.resolve(null);
    p.state = to;
    p.providerPaymentId = set.providerPaymentId ?? p.providerPaymentId;
    if (set.invoice) p.invoiceNumber = `INV-${String(id).padStart(8, '0')}`;
    p.settledAt = at;
    return Promise.resolve({ ...p });
  }
}

function purchase(id: number, state: PurchaseState = 'created'): Purchase {
  return {
    id,
    accountId: 7,
    apiKeyId: 3,
    apiKeyLabel: '',
    apiUsername: 'u',
    idempotencyKey: `key-${id}`,
    fingerprint: Buffer.from('fp'),
    kind: 'credits',
    state,
    credits: 1000,
    number: null,
    cardId: 11,
    cardLast4: '4242',
    amountExGstCents: 3500,
    gstCents: 350,
    amountIncGstCents: 3850,
    provider: 'stripe',
    providerPaymentId: null,
    invoiceNumber: null,
    createdAt: new Date(0),
    chargedAt: null,
    settledAt: null,
    invoiceEmailedAt: null,
  } as unknown as Purchase;
}

function setUp(charge: () => Promise<ChargeOutcome>, card: { removedAt: Date | null } | null = { removedAt: null }) {
  const repo = new FakePurchases();
  const log: string[] = [];
  const charges: Array<{ amountCents: number; idempotencyKey: string }> = [];
  const refunds: Array<[string, string]> = [];
  const stored: Array<{ key: string; status: number; body: unknown }> = [];
  const handler: PurchaseHandler = {
    kind: 'credits',
    fulfil: (p) => Promise.resolve(void log.push(`fulfil ${p.id}`)),
    release: (p) => Promise.resolve(void log.push(`release ${p.id}`)),
    response: (p) => Promise.resolve({ purchase_id: p.id, state: p.state } as never),
    settled: (p) => Promise.resolve(void log.push(`settled ${p.id} ${p.state}`)),
  };
  const cards = {
    byId: () => Promise.resolve(card ? { id: 11, provider: 'stripe', ...card } : null),
    charge: (_card: unknown, request: { amountCents: number; idempotencyKey: string }) => {
      charges.push({ amountCents: request.amountCents, idempotencyKey: request.idempotencyKey });
      return charge();
    },
    refund: (paymentId: string, key: string) => Promise.resolve(void refunds.push([paymentId, key])),
  } as unknown as CardsService;
  const idempotency = {
    claim: () => Promise.resolve(),
    complete: (claim: { key: string }, _tx: Tx, status: number, body: string) => Promise.resolve(void stored.push({ key: claim.key, status, body: JSON.parse(body) })),
  } as unknown as IdempotencyService;
  const uow = { run: <T>(work: (tx: Tx) => Promise<T>) => work(TX) } as unknown as UnitOfWork;
  const invoices = { sendSoon: (id: number) => void log.push(`invoice ${id}`) } as unknown as InvoiceMailer;
  const handlers = { of: () => handler } as unknown as PurchaseHandlers;
  // The outcome's audit entry, written in the step's transaction (before its commit's after-effects).
  const audit = {
    settled: (p: Purchase, tx: Tx) => Promise.resolve(void log.push(`audit ${p.id} ${p.state}${tx === TX ? '' : ' outside'}`)),
    reviewed: (p: Purchase, tx: Tx) => Promise.resolve(void log.push(`audit ${p.id} ${p.state}${tx === TX ? '' : ' outside'} (reviewed)`)),
  } as unknown as PurchaseAudit;
  const clock = { now: () => new Date('2026-11-27T00:00:00Z') } as Clock;
  const settler = new PurchaseSettler(uow, repo as unknown as PurchasesRepository, cards, idempotency, handlers, invoices, audit, clock);
  return { settler, repo, log, charges, refunds, stored };
}

const succeeded = (): Promise<ChargeOutcome> => Promise.resolve({ outcome: 'succeeded', paymentId: 'pi_1' });

describe('PurchaseSettler (state machine over fakes)', () => {
  it('created → charged → fulfilled: one charge under the purchase’s key, fulfilled once and audited as such, the 200 answer stored, the invoice sent', async () => {
    const s = setUp(succeeded);
    s.repo.rows.set(1, purchase(1));
    const settled = await s.settler.settle(1);
    expect(settled.state).toBe('fulfilled');
    expect(s.charges).toEqual([{ amountCents: 3850, idempotencyKey: chargeKey(1) }]);
    expect(s.stored).toEqual([{ key: 'key-1', status: 200, body: { purchase_id: 1, state: 'fulfilled' } }]);
    expect(s.log).toEqual(['fulfil 1', 'audit 1 fulfilled', 'invoice 1', 'settled 1 fulfilled']);
    expect(s.repo.rows.get(1)!.providerPaymentId).toBe('pi_1');
  });

  it('held: the 200 answer says held, nothing is fulfilled, it is audited as held, the invoice is sent', async () => {
    const s = setUp(() => Promise.resolve({ outcome: 'held', paymentId: 'pi_h' }));
    s.repo.rows.set(2, purchase(2));
    expect((await s.settler.settle(2)).state).toBe('held');
    expect(s.stored).toEqual([{ key: 'key-2', status: 200, body: { purchase_id: 2, state: 'held' } }]);
    expect(s.log).toEqual(['audit 2 held', 'invoice 2', 'settled 2 held']);
  });

  it('declined: what was reserved is given back, the 402 is stored, it is audited as declined; no invoice', async () => {
    const s = setUp(() => Promise.resolve({ outcome: 'declined', paymentId: 'pi_d', reason: 'card_declined' }));
    s.repo.rows.set(3, purchase(3));
    expect((await s.settler.settle(3)).state).toBe('declined');
    expect(s.stored).toEqual([{ key: 'key-3', status: 402, body: { error: 'Payment declined' } }]);
    expect(s.log).toEqual(['release 3', 'audit 3 declined', 'settled 3 declined']);
  });

  it('a card removed since the purchase began is declined without calling the provider', async () => {
    const s = setUp(succeeded, { removedAt: new Date(0) });
    s.repo.rows.set(4, purchase(4));
    expect((await s.settler.settle(4)).state).toBe('declined');
    expect(s.charges).toEqual([]);
  });

  it('the provider unavailable: the error goes up and the purchase stays created for a retry or the reconciler', async () => {
    const s = setUp(() => Promise.reject(new PaymentProviderUnavailable('timeout')));
    s.repo.rows.set(5, purchase(5));
    await expect(s.settler.settle(5)).rejects.toBeInstanceOf(PaymentProviderUnavailable);
    expect(s.repo.rows.get(5)!.state).toBe('created');
    expect(s.stored).toEqual([]);
    expect(s.log).toEqual([]);
  });

  it('settling a settled purchase again charges nothing and changes nothing', async () => {
    const s = setUp(succeeded);
    s.repo.rows.set(6, purchase(6, 'fulfilled'));
    expect((await s.settler.settle(6)).state).toBe('fulfilled');
    expect([s.charges, s.stored, s.log]).toEqual([[], [], []]);
  });

  it('a charged purchase (its process crashed after the charge) is fulfilled without a second charge', async () => {
    const s = setUp(succeeded);
    s.repo.rows.set(7, purchase(7, 'charged'));
    expect((await s.settler.settle(7)).state).toBe('fulfilled');
    expect(s.charges).toEqual([]);
    expect(s.log).toEqual(['fulfil 7', 'audit 7 fulfilled', 'invoice 7', 'settled 7 fulfilled']);
  });

  it('when another process makes the step first, this one fulfils nothing and answers the purchase as it now is', async () => {
    const s = setUp(succeeded);
    s.repo.rows.set(8, purchase(8, 'charged'));
    s.repo.beforeTransition = (id) => {
      s.repo.rows.get(id)!.state = 'fulfilled';
      s.repo.beforeTransition = undefined;
    };
    expect((await s.settler.settle(8)).state).toBe('fulfilled');
    expect([s.stored, s.log]).toEqual([[], []]);
  });

  it('release: a held purchase is fulfilled and audited as released; anything else is refused with its state', async () => {
    const s = setUp(succeeded);
    s.repo.rows.set(9, purchase(9, 'held'));
    expect((await s.settler.release(9)).state).toBe('fulfilled');
    expect(s.log).toEqual(['fulfil 9', 'audit 9 fulfilled (reviewed)']);
    const again = await s.settler.release(9).catch((err: unknown) => err);
    expect(again).toBeInstanceOf(DomainError);
    expect((again as DomainError).message).toBe('Purchase 9 is fulfilled, not held for review');
  });

  it('refund: a held payment is refunded at the provider under its own key and what it reserved is given back', async () => {
    const s = setUp(succeeded);
    s.repo.rows.set(10, { ...purchase(10, 'held'), providerPaymentId: 'pi_10' } as Purchase);
    expect((await s.settler.refund(10)).state).toBe('refunded');
    expect(s.refunds).toEqual([['pi_10', 'purchase-10-refund']]);
    expect(s.log).toEqual(['release 10', 'audit 10 refunded (reviewed)']);
  });
});
