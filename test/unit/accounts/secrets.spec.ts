import { digestsEqual, newApiPassword, newApiUsername, sha256 } from '../../../src/accounts/secrets';

describe('API key secrets', () => {
  it('makes passwords of at least 32 characters that do not repeat', () => {
    const passwords = new Set(Array.from({ length: 200 }, newApiPassword));
    expect(passwords.size).toBe(200);
    for (const p of passwords) expect(p).toMatch(/^[A-Za-z0-9]{40}$/);
  });

  it('makes distinct usernames', () => {
    expect(newApiUsername()).toMatch(/^api_[A-Za-z0-9]{16}$/);
    expect(newApiUsername()).not.toBe(newApiUsername());
  });

  it('compares digests exactly', () => {
    expect(digestsEqual(sha256('a'), sha256('a'))).toBe(true);
    expect(digestsEqual(sha256('a'), sha256('b'))).toBe(false);
    expect(digestsEqual(sha256('a'), Buffer.alloc(3))).toBe(false);
  });
});
