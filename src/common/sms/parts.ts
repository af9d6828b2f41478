/**
 * Encoding choice, part counting and part splitting for SMS text.
 *
 * Rules:
 *  - GSM-7: up to 160 septets is one part; longer text is split into parts of
 *    at most 153 septets (7 octets per part go to the concatenation UDH).
 *    Extension characters cost two septets and are never split from their
 *    escape: when only one septet is left in a part, the character moves
 *    wholly into the next part.
 *  - UCS-2: up to 70 UTF-16 code units is one part; longer text is split into
 *    parts of at most 67 code units. A surrogate pair (e.g. an emoji) is never
 *    split across parts.
 *  - Empty text counts as 1 part (and splits into one empty segment); callers
 *    reject empty messages before this matters.
 *  - The part cap (DEFAULT_MAX_PARTS, or an account's max_parts 1..99) is
 *    applied by callers, not here.
 */
import { gsm7CharCost } from './gsm7';

export type SmsEncoding = 'gsm7' | 'ucs2';

export const GSM7_SINGLE_PART_SEPTETS = 160;
export const GSM7_MULTIPART_SEPTETS = 153;
export const UCS2_SINGLE_PART_UNITS = 70;
export const UCS2_MULTIPART_UNITS = 67;

/** Part cap applied by callers when the request gives no max_parts. */
export const DEFAULT_MAX_PARTS = 5;
/** Smallest and largest max_parts a caller may ask for. */
export const MIN_MAX_PARTS = 1;
export const MAX_MAX_PARTS = 99;

/** Error text callers report when non-GSM text is sent without enable_unicode. */
export const UNICODE_REQUIRED_MESSAGE = 'Message contains characters that require enable_unicode';

export type MessageAnalysis = { encoding: SmsEncoding; parts: number } | { error: 'unicode_required' };

/**
 * Pick the encoding for `text`: GSM-7 whenever every character is in the GSM-7
 * alphabet (even if unicode is allowed), otherwise UCS-2 when `allowUnicode`,
 * otherwise null (the caller reports UNICODE_REQUIRED_MESSAGE).
 */
export function chooseEncoding(text: string, allowUnicode: boolean): SmsEncoding | null {
  for (let i = 0; i < text.length; i++) {
    if (gsm7CharCost(text.charCodeAt(i)) === 0) return allowUnicode ? 'ucs2' : null;
  }
  return 'gsm7';
}

/**
 * Encoding and part count in one call: `{ encoding, parts }`, or
 * `{ error: 'unicode_required' }` when the text needs UCS-2 and unicode is not allowed.
 */
export function analyseMessage(text: string, allowUnicode: boolean): MessageAnalysis {
  const encoding = chooseEncoding(text, allowUnicode);
  if (encoding === null) return { error: 'unicode_required' };
  return { encoding, parts: countParts(text, encoding) };
}

/**
 * Number of SMS parts `text` needs in `encoding`. Allocates nothing.
 * Empty text is 1 part.
 * @throws RangeError if encoding is 'gsm7' and the text has a non-GSM character.
 */
export function countParts(text: string, encoding: SmsEncoding): number {
  if (encoding === 'gsm7') return countGsm7Parts(text);
  if (encoding === 'ucs2') return countUcs2Parts(text);
  throw new RangeError(`Unknown SMS encoding: ${String(encoding)}`);
}

/**
 * The text of each part, in order; joining them gives back `text`. A text that
 * fits in one part (including the empty text) returns `[text]`.
 * @throws RangeError if encoding is 'gsm7' and the text has a non-GSM character.
 */
export function splitParts(text: string, encoding: SmsEncoding): string[] {
  if (encoding === 'gsm7') return splitGsm7(text);
  if (encoding === 'ucs2') return splitUcs2(text);
  throw new RangeError(`Unknown SMS encoding: ${String(encoding)}`);
}

function gsmCostOrThrow(text: string, i: number): number {
  const cost = gsm7CharCost(text.charCodeAt(i));
  if (cost === 0) {
    const hex = text.charCodeAt(i).toString(16).toUpperCase().padStart(4, '0');
    throw new RangeError(`Character U+${hex} at index ${i} is not in the GSM-7 alphabet`);
  }
  return cost;
}

/** One pass: total septets (for the single-part test) and greedy 153-septet parts. */
function countGsm7Parts(text: string): number {
  let total = 0;
  let used = 0;
  let parts = 1;
  for (let i = 0; i < text.length; i++) {
    const cost = gsmCostOrThrow(text, i);
    total += cost;
    if (used + cost > GSM7_MULTIPART_SEPTETS) {
      parts++;
      used = 0;
    }
    used += cost;
  }
  return total <= GSM7_SINGLE_PART_SEPTETS ? 1 : parts;
}

function splitGsm7(text: string): string[] {
  let total = 0;
  for (let i = 0; i < text.length; i++) total += gsmCostOrThrow(text, i);
  if (total <= GSM7_SINGLE_PART_SEPTETS) return [text];

  const segments: string[] = [];
  let start = 0;
  let used = 0;
  for (let i = 0; i < text.length; i++) {
    const cost = gsm7CharCost(text.charCodeAt(i));
    if (used + cost > GSM7_MULTIPART_SEPTETS) {
      segments.push(text.slice(start, i));
      start = i;
      used = 0;
    }
    used += cost;
  }
  segments.push(text.slice(start));
  return segments;
}

/** Width in code units of the character starting at `i`: 2 for a surrogate pair, else 1. */
function ucs2Width(text: string, i: number): number {
  const code = text.charCodeAt(i);
  if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
    const next = text.charCodeAt(i + 1);
    if (next >= 0xdc00 && next <= 0xdfff) return 2;
  }
  return 1;
}

function countUcs2Parts(text: string): number {
  if (text.length <= UCS2_SINGLE_PART_UNITS) return 1;
  let used = 0;
  let parts = 1;
  for (let i = 0; i < text.length;) {
    const width = ucs2Width(text, i);
    if (used + width > UCS2_MULTIPART_UNITS) {
      parts++;
      used = 0;
    }
    used += width;
    i += width;
  }
  return parts;
}

function splitUcs2(text: string): string[] {
  if (text.length <= UCS2_SINGLE_PART_UNITS) return [text];
  const segments: string[] = [];
  let start = 0;
  let used = 0;
  for (let i = 0; i < text.length;) {
    const width = ucs2Width(text, i);
    if (used + width > UCS2_MULTIPART_UNITS) {
      segments.push(text.slice(start, i));
      start = i;
      used = 0;
    }
    used += width;
    i += width;
  }
  segments.push(text.slice(start));
  return segments;
}
