import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/** Authenticated data of every sealed password: a value sealed for another purpose under the same key does not open here. */
const PURPOSE = Buffer.from('carrier-password/v1');

/**
 * Seals carrier passwords with AES-256-GCM under CARRIER_SECRET_KEY (32 random bytes, given as hex or
 * base64), so the carriers table alone does not reveal them. A sealed value is `iv (12) | tag (16) |
 * ciphertext`; a fresh iv each time, so two carriers with one password do not show it. During a key
 * rotation a worker also holds the previous key (CARRIER_SECRET_KEY_PREVIOUS): it opens what is not yet
 * resealed, and never seals.
 */
export class CarrierSecret {
  /** The first key seals; each opens, in order. */
  private constructor(private readonly keys: readonly Buffer[]) {}

  /** The key from its setting text (validated by AppConfig: 64 hex digits or 44 base64 characters), and the previous one if any. */
  static fromKeyText(text: string, previousText?: string): CarrierSecret {
    return new CarrierSecret([text, ...(previousText === undefined ? [] : [previousText])].map(keyOf));
  }

  seal(password: string): Buffer {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.keys[0], iv);
    cipher.setAAD(PURPOSE);
    const body = Buffer.concat([cipher.update(password, 'utf8'), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), body]);
  }

  /** @throws when the value was sealed under none of the keys or altered (GCM's tag does not verify). */
  open(sealed: Buffer): string {
    let failure: unknown;
    for (const key of this.keys) {
      try {
        return openWith(key, sealed);
      } catch (err) {
        failure = err;
      }
    }
    throw failure;
  }

  /** Whether open() would succeed: the value was sealed under one of the keys and not altered. */
  opens(sealed: Buffer): boolean {
    try {
      this.open(sealed);
      return true;
    } catch {
      return false;
    }
  }
}

function keyOf(text: string): Buffer {
  const key = /^[0-9a-fA-F]{64}$/.test(text) ? Buffer.from(text, 'hex') : Buffer.from(text, 'base64');
  if (key.length !== 32) throw new RangeError('a carrier secret key must be 32 bytes');
  return key;
}

function openWith(key: Buffer, sealed: Buffer): string {
  const decipher = createDecipheriv('aes-256-gcm', key, sealed.subarray(0, 12));
  decipher.setAAD(PURPOSE);
  decipher.setAuthTag(sealed.subarray(12, 28));
  return Buffer.concat([decipher.update(sealed.subarray(28)), decipher.final()]).toString('utf8');
}
