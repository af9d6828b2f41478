import { randomBytes } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const BASE62_CODES = Array.from(BASE62, (c) => c.charCodeAt(0));

/** Short link codes are 7 base62 characters: 62^7 ≈ 3.5 × 10^12 values, far too many to enumerate. */
export const LINK_CODE_LENGTH = 7;

/** What a short link code looks like (anything else is not looked up). */
export const LINK_CODE_RE = /^[0-9A-Za-z]{7}$/;

/**
 * Random base62 codes from the system's CSPRNG (never sequential), drawn a buffer at a time so a
 * 10000-message batch costs a few calls. Bytes ≥ 248 are discarded so every character is equally likely.
 */
export class CodeSource {
  private buffer = Buffer.alloc(0);
  private offset = 0;

  next(length = LINK_CODE_LENGTH): string {
    const chars: number[] = [];
    while (chars.length < length) {
      if (this.offset >= this.buffer.length) {
        this.buffer = randomBytes(4096);
        this.offset = 0;
      }
      const byte = this.buffer[this.offset++];
      if (byte < 248) chars.push(BASE62_CODES[byte % 62]);
    }
    return String.fromCharCode(...chars);
  }

  /** A code not in `taken` (codes of one batch are distinct before the database sees them). */
  fresh(taken: Set<string>): string {
    let code = this.next();
    while (taken.has(code)) code = this.next();
    taken.add(code);
    return code;
  }
}
