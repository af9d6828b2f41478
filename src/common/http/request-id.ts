import { randomUUID } from 'node:crypto';

export const REQUEST_ID_HEADER = 'x-request-id';
export const REQUEST_ID_MAX_LENGTH = 128;

/** Printable ASCII, no leading or trailing space. */
const PRINTABLE = /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/;

/**
 * The id of a request: the caller's own X-Request-Id when it is printable ASCII of at most 128
 * characters (so a caller can follow its request through our logs), else a fresh UUID. A repeated
 * header is not one id, and is replaced too.
 */
export function requestIdFor(header: string | string[] | undefined): string {
  if (typeof header === 'string' && header.length <= REQUEST_ID_MAX_LENGTH && PRINTABLE.test(header)) return header;
  return randomUUID();
}
