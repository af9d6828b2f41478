import { ErrorText } from '../common/errors/error-catalogue';
import { normaliseAuMobile } from '../common/phone';
import { MAX_CREDITS, MIN_CREDITS } from './pricing';

// The purchase fields' own rules (@Field `check`): each answers the interface's text, or null when the value is acceptable.
// A missing value never reaches them: @Field answers `<name> is required` or leaves an optional field out.

/** `credits`: a JSON whole number from 500 (the minimum purchase) to 10,000,000. */
export function creditsError(value: unknown): string | null {
  if (typeof value !== 'number' || !Number.isInteger(value)) return ErrorText.creditsNotWhole;
  if (value < MIN_CREDITS) return ErrorText.creditsBelowMinimum;
  if (value > MAX_CREDITS) return ErrorText.creditsAboveMaximum;
  return null;
}

/** `card_last4`: four digits, as a string. */
export function cardLast4Error(value: unknown): string | null {
  return typeof value === 'string' && /^[0-9]{4}$/.test(value) ? null : ErrorText.cardLast4Invalid;
}

/** `number`: an Australian mobile in any accepted form (normalised by `normaliseAuMobile` once accepted). */
export function numberError(value: unknown): string | null {
  return typeof value === 'string' && normaliseAuMobile(value) ? null : ErrorText.invalidPhoneNumber;
}

/** `contains`: up to 11 digits to look for in the number. */
export function containsError(value: unknown): string | null {
  return typeof value === 'string' && /^[0-9]{1,11}$/.test(value) ? null : ErrorText.containsInvalid;
}
