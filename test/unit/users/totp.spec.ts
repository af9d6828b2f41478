import { RECOVERY_CODE_COUNT, newRecoveryCodes, recoveryDigest } from '../../../src/users/two-factor/recovery-codes';
import { SecretBox } from '../../../src/users/two-factor/secret-box';
import { base32Decode, base32Encode, matchTotp, otpauthUri, stepAt, totpAt } from '../../../src/users/two-factor/totp';

// RFC 6238 appendix B: the SHA-1 secret is the ASCII of "12345678901234567890"; the 6-digit codes are the last 6 of the 8 given.
const RFC_SECRET = Buffer.from('12345678901234567890', 'ascii');

describe('TOTP (RFC 6238)', () => {
  it.each([
    [59, '287082'],
    [1111111109, '081804'],
    [1111111111, '050471'],
    [1234567890, '005924'],
    [2000000000, '279037'],
    [20000000000, '353130'],
  ])('gives the RFC test vector at %i s', (seconds, code) => {
    expect(totpAt(RFC_SECRET, new Date(seconds * 1000))).toBe(code);
  });

  it('round-trips base32 (RFC 4648 test vector) and builds the otpauth URI apps read', () => {
    expect(base32Encode(Buffer.from('foobar'))).toBe('MZXW6YTBOI');
    expect(base32Decode('mzxw 6ytb oi').toString()).toBe('foobar');
    expect(base32Encode(RFC_SECRET)).toBe('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ');
    expect(otpauthUri('SMS Platform', 'pat@example.com.au', RFC_SECRET)).toBe(
      'otpauth://totp/SMS%20Platform:pat%40example.com.au?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ&issuer=SMS%20Platform&algorithm=SHA1&digits=6&period=30',
    );
  });

  it('accepts a code one step either side of now, never a step at or before the last accepted one', () => {
    const now = new Date(1234567890 * 1000);
    const step = stepAt(now);
    expect(matchTotp(RFC_SECRET, totpAt(RFC_SECRET, now), now, null)).toBe(step);
    expect(matchTotp(RFC_SECRET, totpAt(RFC_SECRET, new Date(now.getTime() - 30_000)), now, null)).toBe(step - 1);
    expect(matchTotp(RFC_SECRET, totpAt(RFC_SECRET, new Date(now.getTime() + 30_000)), now, null)).toBe(step + 1);
    expect(matchTotp(RFC_SECRET, totpAt(RFC_SECRET, new Date(now.getTime() - 60_000)), now, null)).toBeNull();
    expect(matchTotp(RFC_SECRET, totpAt(RFC_SECRET, now), now, step)).toBeNull();
    expect(matchTotp(RFC_SECRET, '12345', now, null)).toBeNull();
    expect(matchTotp(RFC_SECRET, ` ${totpAt(RFC_SECRET, now).slice(0, 3)} ${totpAt(RFC_SECRET, now).slice(3)} `, now, null)).toBe(step);
  });
});

describe(SecretBox.name, () => {
  it('seals so only the same key opens, and signs so only the same key verifies', () => {
    const box = new SecretBox('k'.repeat(32));
    const sealed = box.seal(RFC_SECRET);
    expect(sealed.includes(RFC_SECRET)).toBe(false);
    expect(box.open(sealed)).toEqual(RFC_SECRET);
    expect(() => new SecretBox('other'.repeat(8)).open(sealed)).toThrow();
    expect(box.verify('7.123.456', box.sign('7.123.456'))).toBe(true);
    expect(box.verify('8.123.456', box.sign('7.123.456'))).toBe(false);
  });
});

describe(newRecoveryCodes.name, () => {
  it('makes ten distinct codes, stored as digests that ignore case, spaces and dashes', () => {
    const codes = newRecoveryCodes();
    expect(codes).toHaveLength(RECOVERY_CODE_COUNT);
    expect(new Set(codes).size).toBe(RECOVERY_CODE_COUNT);
    for (const code of codes) expect(code).toMatch(/^[2-9A-HJKMNP-Z]{5}-[2-9A-HJKMNP-Z]{5}$/);
    expect(recoveryDigest(codes[0].toLowerCase().replace('-', ' '))).toEqual(recoveryDigest(codes[0]));
  });
});
