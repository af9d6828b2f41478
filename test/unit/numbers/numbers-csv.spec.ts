import { parseNumbersCsv, parsePriceToCents } from '../../../src/numbers/numbers-csv';

describe(parseNumbersCsv.name, () => {
  it('normalises numbers, reads prices in dollars, reports bad rows by line and counts repeats', () => {
    const csv = [
      'Number,Annual_Price_Ex_GST,notes',
      '0412 345 678,120,first',
      '+61412345679,$99.50,',
      '61412345678,130,again',
      'not a number,10,',
      '0412345680,ten,',
      '',
      '0412345681,0,',
    ].join('\n');
    expect(parseNumbersCsv(csv)).toEqual({
      ok: true,
      parsed: {
        rows: [
          { line: 2, number: '61412345678', annualPriceCents: 12000 },
          { line: 3, number: '61412345679', annualPriceCents: 9950 },
          { line: 8, number: '61412345681', annualPriceCents: 0 },
        ],
        invalid: [
          { line: 5, reason: 'Invalid phone number format' },
          { line: 6, reason: 'annual_price_ex_gst must be an amount in dollars, such as 120 or 99.50, up to 100000' },
        ],
        repeated: 1,
      },
    });
  });

  it.each([
    ['', 'CSV is empty: a header row naming number and annual_price_ex_gst is required'],
    ['number\n0412345678', 'The header row must name the columns number and annual_price_ex_gst'],
    ['number,annual_price_ex_gst\n"0412345678,1', expect.stringMatching(/^CSV could not be read: /)],
  ])('refuses the file %j', (csv, reason) => {
    expect(parseNumbersCsv(csv)).toEqual({ ok: false, reason });
  });
});

describe(parsePriceToCents.name, () => {
  it.each([
    ['120', 12000],
    ['120.5', 12050],
    ['$1,200.00', 120000],
    ['0', 0],
    ['100000', 10_000_000],
    ['100000.01', null],
    ['-1', null],
    ['1.234', null],
    ['1,20', null],
    ['', null],
  ])('%j → %j', (text, cents) => {
    expect(parsePriceToCents(text)).toBe(cents);
  });
});
