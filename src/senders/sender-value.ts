import { normaliseAuMobile } from '../common/phone';
import type { SenderType } from './sender.entity';

export type SenderParse = { value: string; type: SenderType } | { error: string };

const ALPHA_ID = /^(?=.*[A-Za-z])[A-Za-z0-9 ]{3,11}$/;
const NUMBER = /^\+?[\d\s().-]+$/;

/**
 * Reads an operator-supplied sender: a number (an Australian mobile is normalised to 61…; other digit
 * strings such as short codes are kept as digits) is `dedicated` unless told otherwise, anything else an
 * alphanumeric Sender ID of 3-11 letters, digits and spaces with at least one letter (ACMA's rule).
 */
export function parseSenderValue(input: string, type?: SenderType): SenderParse {
  const trimmed = input.trim();
  if (NUMBER.test(trimmed)) {
    const value = normaliseAuMobile(trimmed) ?? trimmed.replace(/\D/g, '');
    if (value.length < 3 || value.length > 15) return { error: `Sender number ${JSON.stringify(input)} must have 3 to 15 digits` };
    if (type === 'alpha') return { error: 'An alpha sender must contain a letter' };
    return { value, type: type ?? 'dedicated' };
  }
  if (!ALPHA_ID.test(trimmed)) return { error: `Sender ID ${JSON.stringify(input)} must be 3-11 letters, digits or spaces with at least one letter` };
  if (type && type !== 'alpha') return { error: `A ${type} sender must be a number` };
  return { value: trimmed, type: 'alpha' };
}
