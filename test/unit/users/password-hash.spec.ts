import { hashPassword, verifyPassword } from '../../../src/users/password-hash';

describe('password hashing (scrypt)', () => {
  let hash: string;
  beforeAll(async () => {
    hash = await hashPassword('correct horse battery staple');
  });

  it('records scrypt with N=2^17, r=8, p=1, a 16-byte salt and a 32-byte key', () => {
    const [scheme, logN, r, p, salt, key] = hash.split('$');
    expect([scheme, logN, r, p]).toEqual(['scrypt', '17', '8', '1']);
    expect(Buffer.from(salt, 'base64url')).toHaveLength(16);
    expect(Buffer.from(key, 'base64url')).toHaveLength(32);
  });

  it('verifies the password and nothing else', async () => {
    expect(await verifyPassword('correct horse battery staple', hash)).toBe(true);
    expect(await verifyPassword('correct horse battery stapler', hash)).toBe(false);
  });

  it('salts every hash', async () => {
    expect(await hashPassword('correct horse battery staple')).not.toBe(hash);
  });

  it('treats a malformed or foreign hash as no match, without running away on silly parameters', async () => {
    for (const bad of ['', 'bcrypt$x', 'scrypt$17$8$1$c2FsdA', 'scrypt$30$8$1$c2FsdHNhbHRzYWx0$a2V5a2V5a2V5a2V5a2V5a2V5', 'scrypt$17$8$1$c2FsdA$a2V5']) {
      expect(await verifyPassword('anything', bad)).toBe(false);
    }
  });
});
