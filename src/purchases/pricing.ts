/** Prices of credits (supplement: Purchases): per credit ex GST by quantity, in tenths of a cent. */
export const CREDIT_TIERS: ReadonlyArray<{ from: number; tenthsOfCent: number }> = [
  { from: 1_000_000, tenthsOfCent: 20 },
  { from: 100_000, tenthsOfCent: 25 },
  { from: 10_000, tenthsOfCent: 30 },
  { from: 1_000, tenthsOfCent: 35 },
  { from: 500, tenthsOfCent: 40 },
];

export const MIN_CREDITS = 500;
export const MAX_CREDITS = 10_000_000;
/** GST is 10% (supplement), rounded to the cent. */
export const GST_PERCENT = 10;

export interface Price {
  exGstCents: number;
  gstCents: number;
  incGstCents: number;
}

/** Integer division rounding halves up (amounts are never negative). */
function roundHalfUp(numerator: number, denominator: number): number {
  return Math.floor((numerator * 2 + denominator) / (denominator * 2));
}

/** GST on an amount ex GST, to the cent (half a cent rounds up). */
export function gstOn(exGstCents: number): number {
  return roundHalfUp(exGstCents * GST_PERCENT, 100);
}

export function withGst(exGstCents: number): Price {
  const gstCents = gstOn(exGstCents);
  return { exGstCents, gstCents, incGstCents: exGstCents + gstCents };
}

/** The per-credit price ex GST for a quantity, in tenths of a cent (3.5¢ = 35). */
export function creditUnitPrice(credits: number): number {
  const tier = CREDIT_TIERS.find((t) => credits >= t.from);
  if (!tier) throw new RangeError(`below the minimum of ${MIN_CREDITS} credits`);
  return tier.tenthsOfCent;
}

/** What `credits` cost: the quantity times its tier's price, rounded to the cent, plus GST. */
export function priceCredits(credits: number): Price {
  return withGst(roundHalfUp(credits * creditUnitPrice(credits), 10));
}

/** `12.30` from 1230 cents. */
export function dollars(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** A JSON number of dollars (two decimals at most). */
export function dollarsNumber(cents: number): number {
  return cents / 100;
}
