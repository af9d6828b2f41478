import { failure } from '../common/errors/error-catalogue';
import { MAX_CREDITS, MIN_CREDITS } from '../purchases/pricing';

/** Auto-recharge may buy at most this many times in any 24 hours, 3 unless the owner says otherwise (1 to 10). */
export const DEFAULT_RECHARGES_PER_DAY = 3;
export const MAX_RECHARGES_PER_DAY = 10;

/** A whole number of credits typed on the page (spaces or commas between thousands), within bounds; the texts name the field. */
export function wholeCredits(typed: string, field: string, min: number, max: number): number {
  const digits = typed.replace(/[\s,]/g, '');
  if (digits === '') throw failure('required', field);
  const value = /^\d{1,9}$/.test(digits) ? Number(digits) : NaN;
  if (!Number.isInteger(value) || value < min || value > max) throw failure('balanceSettingOutOfRange', field, min, max);
  return value;
}

export const BOUNDS = {
  below: { min: 1, max: MAX_CREDITS },
  buy: { min: MIN_CREDITS, max: MAX_CREDITS },
  perDay: { min: 1, max: MAX_RECHARGES_PER_DAY },
  warn: { min: 1, max: MAX_CREDITS },
} as const;
