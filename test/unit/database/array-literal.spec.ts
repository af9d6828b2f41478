import { prepareValue } from 'pg/lib/utils';
import { arrayLiteral } from '../../../src/database/array-literal';

describe(arrayLiteral.name, () => {
  it('writes exactly what the pg driver writes for strings, numbers, booleans and nulls', () => {
    const awkward = ['', 'plain', 'with "quotes"', 'back\\slash', '\\"both\\"', 'a,b', '{braces}', 'NULL', 'null', ' spaced ', 'line\nbreak', 'emoji 😀', 'é¤¡'];
    const values: unknown[] = [...awkward, null, undefined, 0, -1.5, 12345678901234, true, false, 10n];
    expect(arrayLiteral(values)).toBe(prepareValue(values));
    expect(arrayLiteral([])).toBe(prepareValue([]));
  });

  it('leaves any other array to the driver (dates, buffers, nested arrays, objects)', () => {
    expect(arrayLiteral([new Date(0)])).toBeNull();
    expect(arrayLiteral([Buffer.from('x')])).toBeNull();
    expect(arrayLiteral([['a']])).toBeNull();
    expect(arrayLiteral(['a', { b: 1 }])).toBeNull();
  });
});
