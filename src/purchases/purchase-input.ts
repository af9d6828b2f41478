import { failure } from '../common/errors/error-catalogue';
import { normaliseAuMobile } from '../common/phone';
import { MAX_CREDITS, MIN_CREDITS } from './pricing';

/** The request body as an object (a non-object body was refused by the parser already). */
export function fieldsOf(body: unknown): Record<string, unknown> {
  return body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
}

/** `credits`: a whole number from 500 (the minimum purchase) to 10,000,000. */
export function parseCredits(value: unknown): number {
  if (value === undefined || value === null || value === '') throw failure('required', 'credits');
  if (typeof value !== 'number' || !Number.isInteger(value)) throw failure('creditsNotWhole');
  if (value < MIN_CREDITS) throw failure('creditsBelowMinimum');
  if (value > MAX_CREDITS) throw failure('creditsAboveMaximum');
  return value;
}

/** `card_last4`: optional; four digits. */
export function parseCardLast4(value: unknown): string | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string' || !/^[0-9]{4}$/.test(value)) throw failure('cardLast4Invalid');
  return value;
}

/** `number`: an Australian mobile in any accepted form, normalised. */
export function parseNumber(value: unknown): string {
  if (value === undefined || value === null || value === '') throw failure('required', 'number');
  if (typeof value !== 'string') throw failure('invalidPhoneNumber');
  const number = normaliseAuMobile(value);
  if (!number) throw failure('invalidPhoneNumber');
  return number;
}

/** `contains`: up to 11 digits to look for in the number. */
export function parseContains(value: unknown): string {
  if (value === undefined || value === null || value === '') return '';
  if (typeof value !== 'string' || !/^[0-9]{1,11}$/.test(value)) throw failure('containsInvalid');
  return value;
}
