import { normaliseAuMobile } from '../common/phone';
import type { SenderType } from './sender.entity';

export type SenderParse = { value: string; type: SenderType } | { error: string };

const ALPHA_ID = /^(?=.*[A-Za-z])[A-Za-z0-9 ]{3,11}$/;
const NUMBER = /^\+?[\d\s().-]+$/;

/**
 * The stored form of a number written in any form: an Australian mobile is normalised like a recipient
 * (`0412 345 678`, `+61412345678` → `61412345678`); other digit strings such as short codes keep their
 * digits. Null when the input is not written as a number (an alphanumeric Sender ID).
 */
export function numericSenderValue(input: string): string | null {
  const trimmed = input.trim();
  if (!NUMBER.test(trimmed)) return null;
  return normaliseAuMobile(trimmed) ?? trimmed.replace(/\D/g, '');
}

/**
 * Reads an operator-supplied sender: a number (an Australian mobile is normalised to 61…; other digit
 * strings such as short codes are kept as digits) is `dedicated` unless told otherwise, anything else an
 * alphanumeric Sender ID of 3-11 letters, digits and spaces with at least one letter (ACMA's rule).
 */
export function parseSenderValue(input: string, type?: SenderType): SenderParse {
  const value = numericSenderValue(input);
  if (value !== null) {
    if (value.length < 3 || value.length > 15) return { error: `Sender number ${JSON.stringify(input)} must have 3 to 15 digits` };
    if (type === 'alpha') return { error: 'An alpha sender must contain a letter' };
    return { value, type: type ?? 'dedicated' };
  }
  const trimmed = input.trim();
  if (!ALPHA_ID.test(trimmed)) return { error: `Sender ID ${JSON.stringify(input)} must be 3-11 letters, digits or spaces with at least one letter` };
  if (type && type !== 'alpha') return { error: `A ${type} sender must be a number` };
  return { value: trimmed, type: 'alpha' };
}
