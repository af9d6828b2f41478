import { brandKeyOf, checkSenderId } from '../../../src/sender-identity/sender-id';

describe(checkSenderId.name, () => {
  it.each([
    ['Abc', 'Abc'],
    ['MyBrand', 'MyBrand'],
    ['My Brand 24', 'My Brand 24'],
    ['  Bakery ', 'Bakery'],
    ['7Eleven', '7Eleven'],
    ['ABCDEFGHIJK', 'ABCDEFGHIJK'],
  ])('accepts %j as %j', (input, value) => {
    expect(checkSenderId(input)).toEqual({ ok: true, value, brandKey: brandKeyOf(value) });
  });

  it.each([
    ['Ab', 'length'],
    ['ABCDEFGHIJKL', 'length'],
    ['', 'length'],
    ['My-Brand', 'characters'],
    ['Café', 'characters'],
    ['Brand!', 'characters'],
    ['123456', 'letter'],
    ['12 34', 'letter'],
  ])('refuses %j (%s)', (input, problem) => {
    expect(checkSenderId(input)).toEqual({ ok: false, problem });
  });
});

describe(brandKeyOf.name, () => {
  it('ignores case and spaces: one brand, however it is written', () => {
    expect(new Set(['My Brand', 'MYBRAND', 'mybrand', 'M y Brand'].map(brandKeyOf))).toEqual(new Set(['MYBRAND']));
    expect(brandKeyOf('MyBrand2')).not.toBe(brandKeyOf('MyBrand'));
  });
});
