import type { Tx } from '../database/unit-of-work';
import type { Purchase, PurchaseKind } from './purchase.entity';
import type { PurchaseResult } from './purchases.mapper';

/** What one kind of purchase does at each step of the state machine (credits, a number, a renewal). */
export interface PurchaseHandler {
  readonly kind: PurchaseKind;
  /** Delivers what was paid for, in the transaction that marks the purchase fulfilled. */
  fulfil(purchase: Purchase, tx: Tx): Promise<void>;
  /** Gives back what was reserved (an inventory number) when the charge is declined or refunded. */
  release(purchase: Purchase, tx: Tx): Promise<void>;
  /** The 200 body for the API (stored for Idempotency-Key replays); null when no API request waits for it. */
  response(purchase: Purchase, tx: Tx): Promise<PurchaseResult | null>;
  /** After the purchase settled (committed): e.g. tell the owner a renewal failed. */
  settled?(purchase: Purchase): Promise<void>;
}

/** Describes a purchase to the provider (the charge's description). */
export function chargeDescription(p: Purchase): string {
  if (p.kind === 'credits') return `${p.credits} SMS credits`;
  if (p.kind === 'number') return `Dedicated number ${p.number}, 12 months`;
  return `Dedicated number ${p.number}, renewal for 12 months`;
}
