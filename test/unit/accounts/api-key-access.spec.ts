import { MAX_ALLOWED_CIDRS, normaliseKeyAccess } from '../../../src/accounts/api-key-access';
import { DomainError } from '../../../src/common/errors/domain-error';

const all = ['messages:send', 'messages:read', 'contacts', 'senders', 'webhooks', 'account'];
const text = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    if (err instanceof DomainError) return err.message;
    throw err;
  }
  throw new Error('no error');
};

describe('normaliseKeyAccess', () => {
  it('keeps known scopes in catalogue order, ignores purchases (its own switch) and unknown names', () => {
    expect(normaliseKeyAccess({ scopes: ['webhooks', 'purchases', 'messages:read', 'admin'], cidrs: '', cap: '' })).toEqual({
      scopes: ['messages:read', 'webhooks'],
      allowedCidrs: [],
      dailyMessageCap: null,
    });
    expect(normaliseKeyAccess({ scopes: all, cidrs: '', cap: '' }).scopes).toEqual(all);
  });

  it('needs at least one scope', () => {
    expect(text(() => normaliseKeyAccess({ scopes: ['purchases'], cidrs: '', cap: '' }))).toBe('Choose at least one scope for the key');
  });

  it('reads blocks one per line or separated by commas, canonical and without duplicates', () => {
    expect(normaliseKeyAccess({ scopes: all, cidrs: '203.0.113.7/24\r\n2001:DB8::/32, 203.0.113.0/24\n\n198.51.100.4', cap: '' }).allowedCidrs).toEqual([
      '203.0.113.0/24',
      '2001:db8::/32',
      '198.51.100.4/32',
    ]);
  });

  it('names the entry that is not an address or block', () => {
    expect(text(() => normaliseKeyAccess({ scopes: all, cidrs: '203.0.113.0/24\n10.0.0.0/33', cap: '' }))).toBe(
      '"10.0.0.0/33" is not an IP address or CIDR block (for example 203.0.113.0/24 or 2001:db8::/32)',
    );
    const many = Array.from({ length: MAX_ALLOWED_CIDRS + 1 }, (_, i) => `10.0.${i}.0/24`).join('\n');
    expect(text(() => normaliseKeyAccess({ scopes: all, cidrs: many, cap: '' }))).toBe('An API key may list at most 20 addresses or blocks');
  });

  it.each([
    ['', null],
    ['1', 1],
    ['5,000', 5000],
    ['100000', 100000],
  ])('reads the cap %j as %j', (cap, expected) => {
    expect(normaliseKeyAccess({ scopes: all, cidrs: '', cap }).dailyMessageCap).toBe(expected);
  });

  it.each(['0', '-5', '1.5', 'ten', '100001', '1e3'])('refuses the cap %j', (cap) => {
    expect(text(() => normaliseKeyAccess({ scopes: all, cidrs: '', cap }))).toBe('The daily message cap must be a whole number from 1 to 100000, or empty for no cap');
  });
});
