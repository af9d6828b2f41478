import { uuid7 } from '../../../src/common/ids/uuid7';
import { isUuid } from '../../../src/common/validation/uuid';

describe('uuid7', () => {
  it('is a canonical version 7 UUID with the RFC variant', () => {
    for (let i = 0; i < 1000; i++) {
      const id = uuid7();
      expect(isUuid(id)).toBe(true);
      expect(id[14]).toBe('7');
      expect('89ab').toContain(id[19]);
    }
  });

  it('carries the time it was made, in milliseconds, in its first 48 bits', () => {
    const at = Date.UTC(2026, 10, 26, 13, 51, 2, 345);
    const id = uuid7(at);
    expect(parseInt(id.slice(0, 8) + id.slice(9, 13), 16)).toBe(at);
    expect(uuid7(0).slice(0, 13)).toBe('00000000-0000');
    expect(uuid7(2 ** 48 - 1).slice(0, 13)).toBe('ffffffff-ffff');
  });

  it('sorts by the time it was made', () => {
    const ids = [5, 1, 4, 2, 3].map((ms) => uuid7(1_764_000_000_000 + ms));
    expect([...ids].sort()).toEqual([1, 2, 3, 4, 5].map((ms) => ids[[5, 1, 4, 2, 3].indexOf(ms)]));
  });

  it('is never the same twice within one millisecond (74 random bits)', () => {
    const ids = new Set(Array.from({ length: 100_000 }, () => uuid7(1_764_000_000_000)));
    expect(ids.size).toBe(100_000);
  });
});
