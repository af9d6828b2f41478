import { DomainError } from '../../../src/common/errors/domain-error';
import { ValidPipe } from '../../../src/common/validation/valid.pipe';
import { addMonths } from '../../../src/purchases/months';
import { AvailableNumbersQuery, BuyCreditsDto, BuyNumberDto } from '../../../src/purchases/dto/purchase.dto';
import { formatAbn } from '../../../src/purchases/invoice-pdf';
import { testCard } from '../../../src/payments/test-cards';

const pipe = new ValidPipe();
type Dto = typeof BuyCreditsDto | typeof BuyNumberDto | typeof AvailableNumbersQuery;

/** What the validation pipe makes of a body (or query) for a purchase DTO: the value handed on, or `kind: text`. */
function validated(dto: Dto, input: Record<string, unknown>, type: 'body' | 'query' = 'body'): unknown {
  try {
    return pipe.transform(input, { type, metatype: dto });
  } catch (err) {
    if (err instanceof DomainError) return `${err.kind}: ${err.message}`;
    throw err;
  }
}

describe('credits (BuyCreditsDto)', () => {
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
  ])('%p → %s', (value, expected) => {
    expect(validated(BuyCreditsDto, { credits: value })).toBe(expected);
  });

  it('accepts 500 to 10,000,000, and nothing but the declared fields goes on', () => {
    expect(validated(BuyCreditsDto, { credits: 500 })).toEqual({ credits: 500 });
    expect(validated(BuyCreditsDto, { credits: 10_000_000, card_last4: '4242', extra: 1 })).toEqual({ credits: 10_000_000, card_last4: '4242' });
  });
});

describe('card_last4', () => {
  it('is optional and otherwise four digits as a string', () => {
    for (const absent of [undefined, null]) expect(validated(BuyCreditsDto, { credits: 500, card_last4: absent })).toEqual({ credits: 500 });
    expect(validated(BuyCreditsDto, { credits: 500, card_last4: '' })).toEqual({ credits: 500, card_last4: '' });
    expect(validated(BuyNumberDto, { number: '0412345678', card_last4: '0002' })).toEqual({ number: '61412345678', card_last4: '0002' });
    for (const bad of ['424', '42424', 'abcd', 4242, ['4242']]) {
      expect(validated(BuyCreditsDto, { credits: 500, card_last4: bad })).toBe('invalid: card_last4 must be 4 digits');
      expect(validated(BuyNumberDto, { number: '0412345678', card_last4: bad })).toBe('invalid: card_last4 must be 4 digits');
    }
  });

  it('is checked after credits (declaration order)', () => {
    expect(validated(BuyCreditsDto, { credits: 1, card_last4: 'x' })).toBe('invalid: The minimum purchase is 500 credits');
  });
});

describe('number (BuyNumberDto) and contains (AvailableNumbersQuery)', () => {
  it('normalises an Australian mobile in any form', () => {
    expect(['0412 345 678', '+61412345678', '412345678'].map((number) => validated(BuyNumberDto, { number }))).toEqual([
      { number: '61412345678' },
      { number: '61412345678' },
      { number: '61412345678' },
    ]);
    expect(validated(BuyNumberDto, {})).toBe('invalid: number is required');
    expect(validated(BuyNumberDto, { number: '02 9999 9999' })).toBe('invalid: Invalid phone number format');
    expect(validated(BuyNumberDto, { number: 412345678 })).toBe('invalid: Invalid phone number format');
  });

  it('takes up to 11 digits to search for', () => {
    expect([undefined, '', '777', '61412345678'].map((contains) => validated(AvailableNumbersQuery, contains === undefined ? {} : { contains }, 'query'))).toEqual([
      {},
      { contains: '' },
      { contains: '777' },
      { contains: '61412345678' },
    ]);
    for (const bad of ['7a', '123456789012']) expect(validated(AvailableNumbersQuery, { contains: bad }, 'query')).toBe('invalid: contains must be up to 11 digits');
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
