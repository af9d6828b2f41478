import { createHmac, randomBytes } from 'node:crypto';

/**
 * TOTP (RFC 6238 over RFC 4226 HOTP): HMAC-SHA1, 30-second steps, 6 digits, the parameters every
 * authenticator app uses by default. A code is accepted in its own step or one step either side (clock
 * drift), and never for a step at or before the last one accepted (no replay).
 */
export const TOTP_STEP_SECONDS = 30;
export const TOTP_DIGITS = 6;
/** 160-bit secrets: the length RFC 4226 recommends for HMAC-SHA1. */
const SECRET_BYTES = 20;
const DRIFT_STEPS = 1;
const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

export function newTotpSecret(): Buffer {
  return randomBytes(SECRET_BYTES);
}

/** RFC 4648 base32 without padding: how apps take a secret typed by hand. */
export function base32Encode(bytes: Buffer): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out;
}

export function base32Decode(text: string): Buffer {
  const clean = text.toUpperCase().replace(/[\s=-]/g, '');
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const c of clean) {
    const index = BASE32.indexOf(c);
    if (index < 0) throw new Error('not base32');
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

export function stepAt(time: Date): number {
  return Math.floor(time.getTime() / 1000 / TOTP_STEP_SECONDS);
}

/** RFC 4226 HOTP: the code of one counter value (dynamic truncation of HMAC-SHA1). */
export function hotp(secret: Buffer, counter: number): string {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const mac = createHmac('sha1', secret).update(message).digest();
  const offset = mac[mac.length - 1] & 0x0f;
  const binary = mac.readUInt32BE(offset) & 0x7fffffff;
  return String(binary % 10 ** TOTP_DIGITS).padStart(TOTP_DIGITS, '0');
}

export function totpAt(secret: Buffer, time: Date): string {
  return hotp(secret, stepAt(time));
}

/** The step a code matches (within the drift, after `lastStep`), or null. Compares every candidate, so timing tells nothing. */
export function matchTotp(secret: Buffer, code: string, now: Date, lastStep: number | null): number | null {
  const typed = code.replace(/\s/g, '');
  if (!/^\d{6}$/.test(typed)) return null;
  const current = stepAt(now);
  let matched: number | null = null;
  for (let step = current - DRIFT_STEPS; step <= current + DRIFT_STEPS; step++) {
    if (hotp(secret, step) === typed && (lastStep === null || step > lastStep) && matched === null) matched = step;
  }
  return matched;
}

/** The otpauth:// URI an authenticator app reads from the QR code (Key Uri Format). */
export function otpauthUri(issuer: string, account: string, secret: Buffer): string {
  const label = `${encodeURIComponent(issuer)}:${encodeURIComponent(account)}`;
  return `otpauth://totp/${label}?secret=${base32Encode(secret)}&issuer=${encodeURIComponent(issuer)}&algorithm=SHA1&digits=${TOTP_DIGITS}&period=${TOTP_STEP_SECONDS}`;
}
