import { hundredthsToNumber } from '../billing/money';
import { formatUtc } from '../common/time/format';
import { dollarsNumber } from './pricing';
import type { Purchase } from './purchase.entity';
import type { AccountNumber } from './subscriptions.repository';

/** POST /v1/credit-purchases. `state` is `fulfilled`, or `held` while the payment is reviewed (nothing added yet). */
export function toCreditPurchase(p: Purchase, balanceHundredths: number) {
  return {
    status: 'complete' as const,
    state: p.state,
    purchase_id: p.id,
    credits: p.credits!,
    amount_ex_gst: dollarsNumber(p.amountExGstCents),
    gst: dollarsNumber(p.gstCents),
    amount_inc_gst: dollarsNumber(p.amountIncGstCents),
    card_last4: p.cardLast4,
    credit_balance: hundredthsToNumber(balanceHundredths),
    invoice_number: p.invoiceNumber!,
  };
}

/** POST /v1/dedicated-numbers. */
export function toNumberPurchase(p: Purchase, purchasedAt: Date, expiresAt: Date) {
  return {
    status: 'complete' as const,
    state: p.state,
    purchase_id: p.id,
    number: p.number!,
    purchased_at: formatUtc(purchasedAt),
    expires_at: formatUtc(expiresAt),
    renews: true as const,
    amount_ex_gst: dollarsNumber(p.amountExGstCents),
    gst: dollarsNumber(p.gstCents),
    amount_inc_gst: dollarsNumber(p.amountIncGstCents),
    card_last4: p.cardLast4,
    invoice_number: p.invoiceNumber!,
  };
}

export type CreditPurchaseResult = ReturnType<typeof toCreditPurchase>;
export type NumberPurchaseResult = ReturnType<typeof toNumberPurchase>;
/** The 200 answer of a purchase by API, stored for its Idempotency-Key. */
export type PurchaseResult = CreditPurchaseResult | NumberPurchaseResult;

/** GET /v1/available-numbers. */
export function toAvailableNumbers(rows: Array<{ number: string; annualPriceCents: number }>) {
  return { status: 'complete' as const, results: rows.map((r) => ({ number: r.number, annual_price_ex_gst: dollarsNumber(r.annualPriceCents) })) };
}

/** GET /v1/dedicated-numbers. */
export function toDedicatedNumbers(rows: AccountNumber[]) {
  return {
    status: 'complete' as const,
    results: rows.map((r) => ({
      number: r.number,
      kind: r.kind,
      purchased_at: formatUtc(r.purchasedAt),
      expires_at: r.expiresAt ? formatUtc(r.expiresAt) : null,
      renews: r.kind === 'paid',
      renewal_state: r.kind === 'paid' ? (r.renewalState ?? 'active') : null,
    })),
  };
}
