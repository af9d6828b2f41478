import sjson from 'secure-json-parse';
import { failure } from '../errors/error-catalogue';

/**
 * How deep a request body may nest. The deepest body the API takes is three levels
 * (`{"messages": [{...}]}`); 32 leaves room for any client's wrapping while keeping every recursive
 * walk of a body (validation, the idempotency fingerprint) far from the stack limit.
 */
export const MAX_JSON_DEPTH = 32;

/**
 * Parses every request body as JSON (the interface speaks only JSON). An empty body is no body, so a
 * bodiless GET or DELETE carrying `Content-Type: application/json` works as real clients expect.
 * Nesting deeper than MAX_JSON_DEPTH is refused before parsing; `__proto__`/`constructor.prototype`
 * keys are dropped rather than trusted.
 */
export function parseJsonBody(text: string): Record<string, unknown> | undefined {
  if (text.trim() === '') return undefined;
  if (nestingExceeds(text, MAX_JSON_DEPTH)) throw failure('bodyTooDeep', MAX_JSON_DEPTH);
  let value: unknown;
  try {
    value = sjson.parse(text, undefined, { protoAction: 'remove', constructorAction: 'remove' });
  } catch {
    throw failure('invalidJson');
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw failure('bodyNotObject');
  }
  return value as Record<string, unknown>;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;

/**
 * True when brackets outside strings nest deeper than `max`. One pass over the text, no recursion and
 * no allocation, so a hostile 32 MB `[[[[…` costs a scan, not a parse. A string is skipped by searching
 * for its closing quote (a quote after an even run of backslashes), not char by char: most of a large
 * body is its strings. Text that is not valid JSON may pass here; the parser refuses it next.
 */
export function nestingExceeds(text: string, max: number): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      i = closingQuote(text, i);
      if (i < 0) return false;
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (++depth > max) return true;
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      depth--;
    }
  }
  return false;
}

/** Where the string opened at `open` ends, or -1 when it never does. */
function closingQuote(text: string, open: number): number {
  let from = open + 1;
  for (;;) {
    const quote = text.indexOf('"', from);
    if (quote < 0) return -1;
    let backslashes = 0;
    while (quote - backslashes - 1 > open && text.charCodeAt(quote - backslashes - 1) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return quote;
    from = quote + 1;
  }
}
