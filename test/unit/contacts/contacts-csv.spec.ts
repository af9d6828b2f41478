import { checkMapping, CsvFormatError, parseContactsCsv, readCsvHead } from '../../../src/contacts/contacts-csv';

describe(parseContactsCsv.name, () => {
  it('normalises numbers, keeps only the named columns and reports line numbers', () => {
    const parsed = parseContactsCsv('Number, First_Name ,company\n0412345678,Ann,Acme\n"0412 345 679","Bob, Jr",\nnope,x,\n,y,\n+61412345678,dup,\n');
    expect(parsed.columns).toEqual(['first_name', 'company']);
    expect(parsed.rows.map((r) => [r.line, r.number, r.fields.first_name, r.fields.company])).toEqual([
      [2, '61412345678', 'Ann', 'Acme'],
      [3, '61412345679', 'Bob, Jr', ''],
    ]);
    expect(parsed.invalid).toEqual([
      { line: 4, reason: 'Invalid phone number format' },
      { line: 5, reason: 'number is required' },
    ]);
    expect(parsed.duplicates).toEqual([{ line: 6, number: '61412345678', first_line: 2 }]);
  });

  it('counts lines of quoted multi-line values', () => {
    const parsed = parseContactsCsv('number,other\n0412345678,"line one\nline two"\nbad,\n');
    expect(parsed.rows[0].fields.other).toBe('line one\nline two');
    expect(parsed.invalid).toEqual([{ line: 4, reason: 'Invalid phone number format' }]);
  });

  it('skips a byte-order mark and blank lines', () => {
    expect(parseContactsCsv('\uFEFFnumber\n\n0412345678\n').rows).toHaveLength(1);
  });

  it('rejects oversized values', () => {
    expect(parseContactsCsv(`number,other\n0412345678,${'x'.repeat(1001)}\n`).invalid).toEqual([{ line: 2, reason: 'other must be at most 1000 characters' }]);
  });

  it('reports a row with a NUL character as invalid, naming the field, instead of handing it to the database', () => {
    const parsed = parseContactsCsv('number,first_name,company\n0412345678,An\u0000n,Acme\n0412345679,Bob,Acme\n');
    expect(parsed.invalid).toEqual([{ line: 2, reason: 'first_name must not contain NUL characters or unpaired surrogates' }]);
    expect(parsed.rows.map((r) => r.number)).toEqual(['61412345679']);
  });

  it.each([
    ['', 'CSV is empty'],
    ['first_name\nAnn', 'The header row must name a number column'],
    ['number,age\n0412345678,3', 'Unknown column(s) age'],
    ['number\n"unterminated', 'CSV could not be read'],
  ])('refuses %j', (text, message) => {
    expect(() => parseContactsCsv(text)).toThrow(CsvFormatError);
    expect(() => parseContactsCsv(text)).toThrow(message);
  });
});

describe(checkMapping.name, () => {
  it('matches headers trimmed and case-insensitively, and keeps the names as given', () => {
    expect(checkMapping({ number: 'mobile', first_name: 'Given Name' }, [' Mobile ', 'given name', 'Other'])).toEqual({ number: 'mobile', first_name: 'Given Name' });
  });

  it.each([
    [[], 'mapping must be an object'],
    [{ first_name: 'Mobile' }, 'mapping.number is required'],
    [{ number: 'Mobile', age: 'Mobile' }, 'mapping names an unknown contact field: age'],
    [{ number: '' }, 'mapping.number must be the header of a CSV column'],
    [{ number: 'Phone' }, 'mapping.number names a column the CSV does not have: Phone'],
  ])('refuses %j', (mapping, message) => {
    expect(() => checkMapping(mapping, ['Mobile'])).toThrow(message);
  });
});

describe('parseContactsCsv with a mapping', () => {
  it('reads the mapped columns, ignores the rest, and writes only mapped fields', () => {
    const parsed = parseContactsCsv('Phone,Name,Notes\n0412345678,Ann,ignored\n', { number: 'phone', first_name: 'Name' });
    expect(parsed.columns).toEqual(['first_name']);
    expect(parsed.rows).toEqual([{ line: 2, number: '61412345678', fields: expect.objectContaining({ first_name: 'Ann', other: '' }) }]);
  });
});

describe(readCsvHead.name, () => {
  it('answers the header and the first rows only', () => {
    expect(readCsvHead('a,b\n1,2\n3,4\n5,6\n', 2)).toEqual({
      header: ['a', 'b'],
      records: [
        ['1', '2'],
        ['3', '4'],
      ],
    });
  });
});
