import { INVALID_PHONE_NUMBER_FORMAT, describeNonMobile, isAuMobile, normaliseAuMobile, normaliseAuMobiles } from '../../../../src/common/phone';

const EXPECTED = '61412345678';

describe(normaliseAuMobile.name, () => {
  it.each(['0412345678', '412345678', '61412345678', '+61412345678', '610412345678', '+610412345678'])('accepts the canonical form %s', (input) =>
    expect(normaliseAuMobile(input)).toBe(EXPECTED),
  );

  it.each([
    '0412 345 678',
    '0412.345.678',
    '0412-345-678',
    '(04) 1234-5678',
    '(0412) 345678',
    '+61 (0) 412 345 678',
    '+61 412 345 678',
    '61 4 1234 5678',
    '(+61) 412 345 678',
    '0 4 1 2 3 4 5 6 7 8',
    '  0412345678  ',
    '\t0412 345 678\n',
  ])('accepts separators anywhere and surrounding whitespace: %j', (input) => {
    expect(normaliseAuMobile(input)).toBe(EXPECTED);
  });

  it.each(['0061412345678', '0061 412 345 678', '0061 (0) 412 345 678'])('accepts the 0061 international access code: %s', (input) =>
    expect(normaliseAuMobile(input)).toBe(EXPECTED),
  );

  it.each([
    ['fullwidth digits', '０４１２３４５６７８'],
    ['fullwidth plus and brackets', '＋６１（０）４１２３４５６７８'],
    ['Arabic-Indic digits', '٠٤١٢٣٤٥٦٧٨'],
    ['non-breaking and ideographic spaces', '0412\u00A0345\u3000678'],
    ['en dash and zero-width space', '0412\u2013345\u200B678'],
  ])('accepts unicode input via the slow path: %s', (_label, input) => {
    expect(normaliseAuMobile(input)).toBe(EXPECTED);
  });

  it.each([
    ['landline 02', '0298765432'],
    ['landline 03', '0398765432'],
    ['landline 07', '0798765432'],
    ['landline 08', '0898765432'],
    ['landline in international form', '+61298765432'],
    ['landline without trunk zero', '61298765432'],
    ['1300 number', '1300 123 456'],
    ['1800 number', '1800 123 456'],
    ['13 number', '13 12 34'],
    ['too short', '041234567'],
    ['too short without zero', '41234567'],
    ['too long', '04123456789'],
    ['too long without zero', '4123456789'],
    ['61 4 with 7 digits after the 4', '6141234567'],
    ['61 4 with 9 digits after the 4', '614123456789'],
    ['+61 4 with 10 digits after the 4', '+6141234567890'],
    ['US number', '+14155552671'],
    ['UK mobile', '+447911123456'],
    ['NZ mobile', '+64211234567'],
    ['plus without country code', '+0412345678'],
    ['plus in the middle', '04+12345678'],
    ['plus after digits', '61+412345678'],
    ['two pluses', '++61412345678'],
    ['trailing plus', '0412345678+'],
    ['0011 access code', '0011 61 412 345 678'],
    ['00 prefix on a national number', '000412345678'],
    ['letters', '0412abc678'],
    ['vanity letters', '04 FLOWERS1'],
    ['extension', '0412345678 ext 1'],
    ['slash separator', '0412/345/678'],
    ['empty', ''],
    ['whitespace only', '   '],
    ['separators only', '(--)'],
    ['plus only', '+'],
    ['unsupported unicode digits', '\u0966\u096A\u0967\u0968\u0969\u096A\u096B\u096C\u096D\u096E'],
    ['emoji', '0412345678 📱'],
    ['huge digit string', '0'.repeat(10_000)],
  ])('rejects %s (%j)', (_label, input) => {
    expect(normaliseAuMobile(input)).toBeNull();
  });

  it.each([undefined, null, 412345678, {}, ['0412345678']])('returns null for a non-string (%p)', (input) => {
    expect(normaliseAuMobile(input as unknown as string)).toBeNull();
  });

  it('accepts every 04 + 8 digits across the whole range, whatever carrier tables say', () => {
    const step = 100_003; // prime, so the sample hits every digit position
    const rejected: string[] = [];
    const numbers = ['0400000000', '0499999999'];
    for (let n = 400_000_000; n <= 499_999_999; n += step) numbers.push('0' + n);
    for (const number of numbers) {
      if (normaliseAuMobile(number) !== '61' + number.slice(1)) rejected.push(number);
    }
    expect(numbers.length).toBeGreaterThan(1_000);
    expect(rejected).toEqual([]);
  });

  it('normalises a batch in order, with null for the invalid entries', () => {
    expect(normaliseAuMobiles(['0412 345 678', '0298765432', '+61 499 999 999', ''])).toEqual([EXPECTED, null, '61499999999', null]);
    expect(normaliseAuMobiles([])).toEqual([]);
  });

  it('only ever produces output that isAuMobile recognises', () => {
    expect(normaliseAuMobiles(['0412345678', '+61 (0) 400 000 000', '0061499999999']).every((n) => isAuMobile(n!))).toBe(true);
  });
});

describe(isAuMobile.name, () => {
  it('accepts only the canonical 61 + 4 + 8 digits form', () => {
    expect(isAuMobile('61412345678')).toBe(true);
    for (const other of ['0412345678', '+61412345678', '6141234567', '614123456789', '61298765432', '']) {
      expect(isAuMobile(other)).toBe(false);
    }
  });
});

describe(describeNonMobile.name, () => {
  it.each([
    ['0298765432', 'landline'],
    ['+61 3 9876 5432', 'landline'],
    ['1300 123 456', 'landline'],
    ['0061 2 9876 5432', 'landline'],
    ['0011 61 2 9876 5432', 'landline'],
    ['0044 7911 123456', 'foreign'],
    ['+14155552671', 'foreign'],
    ['+447911123456', 'foreign'],
    ['+64 21 123 4567', 'foreign'],
    ['041234567', 'malformed'],
    ['0412abc678', 'malformed'],
    ['', 'malformed'],
    ['+', 'malformed'],
  ] as const)('classifies %j as %s', (input, reason) => {
    expect(describeNonMobile(input)).toBe(reason);
  });

  it('returns null for a valid mobile and malformed for a non-string', () => {
    expect(describeNonMobile('0412 345 678')).toBeNull();
    expect(describeNonMobile(42)).toBe('malformed');
  });

  it('exposes one public error text for every reason', () => {
    expect(INVALID_PHONE_NUMBER_FORMAT).toBe('Invalid phone number format');
  });
});
