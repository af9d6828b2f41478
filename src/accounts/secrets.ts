import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';

/** Uniformly random string over a 57-character alphabet (rejection sampling avoids modulo bias). */
export function randomToken(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < ALPHABET.length * 4 && out.length < length) out += ALPHABET[byte % ALPHABET.length];
    }
  }
  return out;
}

/** API username: not secret, but unguessable enough that it leaks nothing about other accounts. */
export function newApiUsername(): string {
  return `api_${randomToken(16)}`;
}

/** API password: 40 characters (~233 bits); stored only as its SHA-256. */
export function newApiPassword(): string {
  return randomToken(40);
}

export function sha256(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}

export function digestsEqual(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}
