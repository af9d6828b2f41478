import { abnChecksumValid, checkAbn } from '../../../src/sender-identity/abn';

describe(abnChecksumValid.name, () => {
  it.each([
    ['51824753556', 'the ATO’s worked example'],
    ['33051775556', 'Telstra'],
    ['48123123124', 'Commonwealth Bank'],
    ['88000014675', 'Woolworths'],
  ])('accepts %s (%s)', (abn) => {
    expect(abnChecksumValid(abn)).toBe(true);
  });

  it.each([
    ['51824753557', 'last digit changed'],
    ['15824753556', 'check digits swapped'],
    ['51824735556', 'two digits transposed'],
    ['01824753556', 'a leading 0 (check digits run 10-99)'],
    ['11111111111', 'a repeated digit'],
    ['5182475355', 'ten digits'],
    ['518247535566', 'twelve digits'],
    ['5182475355a', 'a letter'],
  ])('refuses %s (%s)', (abn) => {
    expect(abnChecksumValid(abn)).toBe(false);
  });
});

describe(checkAbn.name, () => {
  it('takes an ABN as people write it, spaces ignored, and gives its 11 digits', () => {
    expect(checkAbn(' 51 824 753 556 ')).toEqual({ ok: true, abn: '51824753556' });
    expect(checkAbn('51824753556')).toEqual({ ok: true, abn: '51824753556' });
  });

  it.each([
    ['51 824 753 557', 'checksum'],
    ['5182475355', 'length'],
    ['518247535566', 'length'],
    ['', 'length'],
    ['51 824 753 55O', 'not_digits'],
    ['ABN51824753556', 'not_digits'],
    ['51-824-753-556', 'not_digits'],
  ])('%j → %s', (input, problem) => {
    expect(checkAbn(input)).toEqual({ ok: false, problem });
  });
});
