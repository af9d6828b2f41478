import { DomainError } from '../../../src/common/errors/domain-error';
import { addMonths } from '../../../src/purchases/months';
import { formatAbn } from '../../../src/purchases/invoice-pdf';
import { parseCardLast4, parseContains, parseCredits, parseNumber } from '../../../src/purchases/purchase-input';
import { testCard } from '../../../src/payments/test-cards';

const textOf = (fn: () => unknown): string => {
  try {
    fn();
  } catch (err) {
    if (err instanceof DomainError) return `${err.kind}: ${err.message}`;
    throw err;
  }
  return 'accepted';
};

describe('parseCredits', () => {
  it.each([
    [undefined, 'invalid: credits is required'],
    [null, 'invalid: credits is required'],
    ['', 'invalid: credits is required'],
    [499, 'invalid: The minimum purchase is 500 credits'],
    [-500, 'invalid: The minimum purchase is 500 credits'],
    [500.5, 'invalid: credits must be a whole number'],
    ['500', 'invalid: credits must be a whole number'],
    [true, 'invalid: credits must be a whole number'],
    [Number.NaN, 'invalid: credits must be a whole number'],
    [10_000_001, 'invalid: The maximum purchase is 10000000 credits'],
    [500, 'accepted'],
    [10_000_000, 'accepted'],
  ])('%p → %s', (value, expected) => {
    expect(textOf(() => parseCredits(value))).toBe(expected);
  });
});

describe('parseCardLast4', () => {
  it('is optional and otherwise four digits as a string', () => {
    expect([undefined, null, ''].map(parseCardLast4)).toEqual([undefined, undefined, undefined]);
    expect(parseCardLast4('0002')).toBe('0002');
    for (const bad of ['424', '42424', 'abcd', 4242, ['4242']]) expect(textOf(() => parseCardLast4(bad))).toBe('invalid: card_last4 must be 4 digits');
  });
});

describe('parseNumber and parseContains', () => {
  it('normalises an Australian mobile in any form', () => {
    expect(['0412 345 678', '+61412345678', '412345678'].map(parseNumber)).toEqual(['61412345678', '61412345678', '61412345678']);
    expect(textOf(() => parseNumber(undefined))).toBe('invalid: number is required');
    expect(textOf(() => parseNumber('02 9999 9999'))).toBe('invalid: Invalid phone number format');
    expect(textOf(() => parseNumber(412345678))).toBe('invalid: Invalid phone number format');
  });

  it('takes up to 11 digits to search for', () => {
    expect([undefined, '', '777', '61412345678'].map(parseContains)).toEqual(['', '', '777', '61412345678']);
    for (const bad of ['7a', '123456789012', 7]) expect(textOf(() => parseContains(bad))).toBe('invalid: contains must be up to 11 digits');
  });
});

describe('addMonths', () => {
  it('keeps the day, or the month’s last day when it has fewer', () => {
    expect(addMonths(new Date('2026-11-22T10:00:00Z'), 12).toISOString()).toBe('2027-11-22T10:00:00.000Z');
    expect(addMonths(new Date('2028-02-29T00:00:00Z'), 12).toISOString()).toBe('2029-02-28T00:00:00.000Z');
    expect(addMonths(new Date('2027-01-31T00:00:00Z'), 1).toISOString()).toBe('2027-02-28T00:00:00.000Z');
  });
});

describe('formatAbn and testCard', () => {
  it('groups an ABN as printed on invoices', () => {
    expect(formatAbn('51824753556')).toBe('51 824 753 556');
  });

  it('knows Stripe’s test cards and nothing else', () => {
    expect(testCard('4242 4242 4242 4242')).toEqual({ number: '4242424242424242', brand: 'visa', behaviour: 'succeeds' });
    expect(testCard('4000-0000-0000-9235')?.behaviour).toBe('held');
    expect(testCard('4111111111111111')).toBeNull();
  });
});
