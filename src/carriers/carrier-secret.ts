import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/** Authenticated data of every sealed password: a value sealed for another purpose under the same key does not open here. */
const PURPOSE = Buffer.from('carrier-password/v1');

/**
 * Seals carrier passwords with AES-256-GCM under CARRIER_SECRET_KEY (32 random bytes, given as hex or
 * base64), so the carriers table alone does not reveal them. A sealed value is `iv (12) | tag (16) |
 * ciphertext`; a fresh iv each time, so two carriers with one password do not show it.
 */
export class CarrierSecret {
  private constructor(private readonly key: Buffer) {}

  /** The key from its setting text (validated by AppConfig: 64 hex digits or 44 base64 characters). */
  static fromKeyText(text: string): CarrierSecret {
    const key = /^[0-9a-fA-F]{64}$/.test(text) ? Buffer.from(text, 'hex') : Buffer.from(text, 'base64');
    if (key.length !== 32) throw new RangeError('CARRIER_SECRET_KEY must be 32 bytes');
    return new CarrierSecret(key);
  }

  seal(password: string): Buffer {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(PURPOSE);
    const body = Buffer.concat([cipher.update(password, 'utf8'), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), body]);
  }

  /** @throws when the value was sealed under another key or altered (GCM's tag does not verify). */
  open(sealed: Buffer): string {
    const decipher = createDecipheriv('aes-256-gcm', this.key, sealed.subarray(0, 12));
    decipher.setAAD(PURPOSE);
    decipher.setAuthTag(sealed.subarray(12, 28));
    return Buffer.concat([decipher.update(sealed.subarray(28)), decipher.final()]).toString('utf8');
  }

  /** Whether open() would succeed: the value was sealed under this key and not altered. */
  opens(sealed: Buffer): boolean {
    try {
      this.open(sealed);
      return true;
    } catch {
      return false;
    }
  }
}
