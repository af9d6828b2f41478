import { createHash, randomBytes } from 'node:crypto';

/** 32 random bytes, base64url: the session cookie and the single-use links. */
export function newSecretToken(): string {
  return randomBytes(32).toString('base64url');
}

export function digestOf(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}
