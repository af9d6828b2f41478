import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * AES-256-GCM for secrets we must read back (TOTP secrets: a code is checked against the secret itself,
 * so it cannot be hashed), and HMAC-SHA-256 for values we only check (remembered-device cookies). The
 * key is TWO_FACTOR_KEY; a stored value is `iv (12) | tag (16) | ciphertext`.
 */
export class SecretBox {
  private readonly key: Buffer;

  constructor(keyText: string) {
    // Any length of key text is stretched to 32 bytes; operators are told to give 32 random bytes.
    this.key = createHash('sha256').update(keyText).digest();
  }

  seal(plain: Buffer): Buffer {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(plain), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), body]);
  }

  open(sealed: Buffer): Buffer {
    const decipher = createDecipheriv('aes-256-gcm', this.key, sealed.subarray(0, 12));
    decipher.setAuthTag(sealed.subarray(12, 28));
    return Buffer.concat([decipher.update(sealed.subarray(28)), decipher.final()]);
  }

  sign(text: string): string {
    return createHmac('sha256', this.key).update(text).digest('base64url');
  }

  verify(text: string, signature: string): boolean {
    const expected = Buffer.from(this.sign(text));
    const given = Buffer.from(signature);
    return expected.length === given.length && timingSafeEqual(expected, given);
  }
}
