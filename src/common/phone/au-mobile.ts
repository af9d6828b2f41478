/**
 * Australian mobile numbers. A number is a mobile exactly when its national form is
 * `04` + 8 digits; carrier range tables (libphonenumber-js metadata) are deliberately
 * not consulted for acceptance, so a newly allocated range is never refused.
 */

/** The only error text shown to clients, whatever the reason for rejection. */
export const INVALID_PHONE_NUMBER_FORMAT = 'Invalid phone number format';

/** Diagnostic-only reason; 'landline' means any valid Australian non-mobile (fixed, 13, 1300, 1800...). */
export type NonMobileReason = 'landline' | 'foreign' | 'malformed';

type LibCore = typeof import('libphonenumber-js/core');
type LibMax = typeof import('libphonenumber-js/max');

// Loaded on first need only: the common ASCII forms never touch the library.
/* eslint-disable @typescript-eslint/no-require-imports -- lazy loading needs require() */
let libCore: LibCore | undefined;
let libMax: LibMax | undefined;
const loadCore = (): LibCore => (libCore ??= require('libphonenumber-js/core') as LibCore);
const loadMax = (): LibMax => (libMax ??= require('libphonenumber-js/max') as LibMax);
/* eslint-enable @typescript-eslint/no-require-imports */

const CANONICAL = /^614\d{8}$/;
const NON_ASCII = Symbol('non-ascii');
// Longest accepted digit run: 0061 0 4xxxxxxxx.
const MAX_DIGITS = 14;

/** True for the canonical form produced by normaliseAuMobile: `61` + `4` + 8 digits. */
export function isAuMobile(normalised: string): boolean {
  return typeof normalised === 'string' && CANONICAL.test(normalised);
}

/** `61` + 9 digits (e.g. `61412345678`), or null when the input is not an Australian mobile. */
export function normaliseAuMobile(input: string): string | null {
  if (typeof input !== 'string') return null;
  let scanned = scan(input);
  if (scanned === NON_ASCII) {
    const ascii = toAscii(input);
    scanned = ascii === null ? null : scan(ascii);
  }
  return typeof scanned === 'string' ? decide(scanned) : null;
}

export function normaliseAuMobiles(inputs: readonly string[]): (string | null)[] {
  const out = new Array<string | null>(inputs.length);
  for (let i = 0; i < inputs.length; i++) out[i] = normaliseAuMobile(inputs[i]);
  return out;
}

/** Why an input was refused, for logs only; null when it is in fact a valid mobile. */
export function describeNonMobile(input: unknown): NonMobileReason | null {
  if (typeof input !== 'string') return 'malformed';
  if (normaliseAuMobile(input) !== null) return null;
  if (/\p{L}/u.test(input)) return 'malformed';
  // `00` (other than AU's own 0011) is the access code used in most countries and in our 0061 form.
  const phone = loadMax().parsePhoneNumberFromString(input.replace(/^\s*00(?!11)/, '+'), 'AU');
  if (!phone) return 'malformed';
  if (phone.countryCallingCode !== '61') return phone.isPossible() ? 'foreign' : 'malformed';
  return phone.isValid() ? 'landline' : 'malformed';
}

/**
 * Strips separators (whitespace, `.`, `-`, brackets) and returns the digits, prefixed
 * with `+` when the input starts with one (only whitespace / opening brackets may precede it).
 * null: any other character, or too many digits. NON_ASCII: let the slow path decide.
 */
function scan(input: string): string | null | typeof NON_ASCII {
  let out = '';
  let leading = true;
  for (let i = 0; i < input.length; i++) {
    const c = input.charCodeAt(i);
    if (c >= 48 && c <= 57) {
      if (out.length > MAX_DIGITS) return null;
      out += input[i];
      leading = false;
    } else if (c === 43) {
      if (!leading) return null;
      out = '+';
      leading = false;
    } else if (c === 32 || (c >= 9 && c <= 13) || c === 40 || c === 91) {
      // whitespace, `(` and `[` may precede a leading `+`
    } else if (c === 41 || c === 93 || c === 45 || c === 46) {
      leading = false;
    } else if (c > 127) {
      return NON_ASCII;
    } else {
      return null;
    }
  }
  return out;
}

/** Maps `+614…`, `+6104…`, `614…`, `6104…`, `00614…`, `006104…`, `04…`, `4…` to `614…`. */
function decide(digits: string): string | null {
  let national: string;
  if (digits[0] === '+') {
    if (!digits.startsWith('+61')) return null;
    national = digits.slice(3);
  } else if (digits.startsWith('0061')) {
    national = digits.slice(4);
  } else if (digits.startsWith('61')) {
    // Safe: a bare national number never starts with 6.
    national = digits.slice(2);
  } else {
    national = digits;
  }
  if (national.length === 10 && national[0] === '0' && national[1] === '4') return '61' + national.slice(1);
  if (national.length === 9 && national[0] === '4') return '61' + national;
  return null;
}

const FULLWIDTH: Readonly<Record<string, string>> = {
  '\uFF0B': '+',
  '\uFF08': '(',
  '\uFF09': ')',
  '\uFF3B': '[',
  '\uFF3D': ']',
  '\uFF0E': '.',
};
const UNICODE_SPACE = /^[\s\u200B\u2060]$/u;
const UNICODE_DASH = /^[\p{Pd}\u2212\u00AD]$/u;

/**
 * Slow path for non-ASCII input (pasted text, fullwidth or Arabic-Indic digits):
 * rewrites it to ASCII for scan(); null when a character is neither digit nor separator.
 */
function toAscii(input: string): string | null {
  let out = '';
  for (const ch of input) {
    if (ch.charCodeAt(0) < 128) out += ch;
    else if (FULLWIDTH[ch] !== undefined) out += FULLWIDTH[ch];
    else if (UNICODE_SPACE.test(ch)) out += ' ';
    else if (UNICODE_DASH.test(ch)) out += '-';
    else {
      const digit = loadCore().parseDigits(ch);
      if (digit.length !== 1) return null;
      out += digit;
    }
  }
  return out;
}
