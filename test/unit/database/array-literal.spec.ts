import { prepareValue } from 'pg/lib/utils';
import { arrayLiteral } from '../../../src/database/array-literal';

describe(arrayLiteral.name, () => {
  it('writes exactly what the pg driver writes for strings, numbers, booleans and nulls', () => {
    const awkward = ['', 'plain', 'with "quotes"', 'back\\slash', '\\"both\\"', 'a,b', '{braces}', 'NULL', 'null', ' spaced ', 'line\nbreak', 'emoji 😀', 'é¤¡'];
    const values: unknown[] = [...awkward, null, undefined, 0, -1.5, 12345678901234, true, false, 10n];
    expect(arrayLiteral(values)).toBe(prepareValue(values));
    expect(arrayLiteral([])).toBe(prepareValue([]));
  });

  it('writes the same literal when no element is null or needs an escape (the one-join path)', () => {
    const plain: unknown[][] = [['a', 'b c', '', 'é😀', '{x}', 'a,b'], [1, 2.5, -3, 0], [true, false], [1n, 2n], ['mixed', 1, true, 5n], ['one']];
    for (const values of plain) expect(arrayLiteral(values)).toBe(prepareValue(values));
  });

  it('writes the same literal for strings that need escapes, with or without control characters and lone surrogates', () => {
    const escaped: unknown[][] = [
      ['{"to":"61412345678","message":"Say \\"hi\\"","n":1}', 'back\\slash', '"', '\\', 'é😀 "x"', ''],
      ['with "quotes"', 'tab\there'],
      ['with "quotes"', 'lone \ud800 surrogate'],
      ['with "quotes"', 'lone \udc00 surrogate'],
    ];
    for (const values of escaped) expect(arrayLiteral(values)).toBe(prepareValue(values));
  });

  it('leaves any other array to the driver (dates, buffers, nested arrays, objects)', () => {
    expect(arrayLiteral([new Date(0)])).toBeNull();
    expect(arrayLiteral([Buffer.from('x')])).toBeNull();
    expect(arrayLiteral([['a']])).toBeNull();
    expect(arrayLiteral(['a', { b: 1 }])).toBeNull();
  });
});
