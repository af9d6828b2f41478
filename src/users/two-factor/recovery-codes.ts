import { randomInt } from 'node:crypto';
import { digestOf } from '../secret-token';

export const RECOVERY_CODE_COUNT = 10;
/** No 0/O, 1/I/L: codes are read off paper and typed. 10 characters of 31: about 50 bits each. */
const ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';

/** Ten fresh codes, shown once as `XXXXX-XXXXX`; only their digests are stored. */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const chars = Array.from({ length: 10 }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
    return `${chars.slice(0, 5)}-${chars.slice(5)}`;
  });
}

/** A typed code as stored: upper case, without spaces or dashes. */
export function recoveryDigest(typed: string): Buffer {
  return digestOf(typed.toUpperCase().replace(/[\s-]/g, ''));
}

export function looksLikeRecoveryCode(typed: string): boolean {
  return /^[A-Z0-9]{10}$/.test(typed.toUpperCase().replace(/[\s-]/g, ''));
}
