import { checkServiceAddress, formatServiceAddress } from '../../../src/numbers/service-address';

describe(checkServiceAddress.name, () => {
  it.each([
    ['10 Smith St, Sydney NSW 2000', { street: '10 Smith St', suburb: 'Sydney', state: 'NSW', postcode: '2000' }],
    ['Level 2, 10 Smith St, Sydney NSW 2000', { street: 'Level 2, 10 Smith St', suburb: 'Sydney', state: 'NSW', postcode: '2000' }],
    ['1 Collins St Melbourne vic 3000', { street: '1 Collins St Melbourne', suburb: '', state: 'VIC', postcode: '3000' }],
    ['  5  Wattle Rd,  Darwin, NT, 0800, Australia ', { street: '5 Wattle Rd', suburb: 'Darwin', state: 'NT', postcode: '0800' }],
    ['2000 George St, Brisbane QLD 4000', { street: '2000 George St', suburb: 'Brisbane', state: 'QLD', postcode: '4000' }],
    ['12 Wattle St, Perth WA 6000', { street: '12 Wattle St', suburb: 'Perth', state: 'WA', postcode: '6000' }],
  ])('reads the line %j', (line, address) => {
    expect(checkServiceAddress(line)).toEqual({ ok: true, address });
  });

  it('reads the fields form, state in any case', () => {
    expect(checkServiceAddress({ street: ' 10  Smith St ', suburb: 'Hobart', state: 'tas', postcode: '7000' })).toEqual({
      ok: true,
      address: { street: '10 Smith St', suburb: 'Hobart', state: 'TAS', postcode: '7000' },
    });
    expect(checkServiceAddress({ street: '1 Main Rd', state: 'SA', postcode: '5000' })).toEqual({
      ok: true,
      address: { street: '1 Main Rd', suburb: '', state: 'SA', postcode: '5000' },
    });
  });

  it.each([
    [undefined, 'missing'],
    ['', 'missing'],
    ['   ', 'missing'],
    [{}, 'missing'],
    [42, 'type'],
    [['10 Smith St'], 'type'],
    [{ street: 1, state: 'NSW', postcode: '2000' }, 'type'],
    ['10 Smith St, Sydney NSW', 'postcode'],
    ['10 Smith St, Sydney NSW 200', 'postcode'],
    ['10 Smith St, Sydney NSW 20000', 'postcode'],
    ['10 Smith St, Sydney 2000', 'state'],
    ['10 Smith St, Sydney New South Wales 2000', 'state'],
    ['10 Smith St, Auckland NZ 1010', 'state'],
    ['NSW 2000', 'street'],
    [', , NSW 2000', 'street'],
    [{ street: '1 Main Rd', state: 'XYZ', postcode: '5000' }, 'state'],
    [{ street: '1 Main Rd', state: 'SA', postcode: '50000' }, 'postcode'],
    [{ street: ' ', state: 'SA', postcode: '5000' }, 'street'],
    [`${'x'.repeat(190)} Sydney NSW 2000`, 'too_long'],
  ])('%j → %s', (input, problem) => {
    expect(checkServiceAddress(input)).toEqual({ ok: false, problem });
  });
});

describe(formatServiceAddress.name, () => {
  it('writes one line, with the suburb when there is one', () => {
    expect(formatServiceAddress({ street: '10 Smith St', suburb: 'Sydney', state: 'NSW', postcode: '2000' })).toBe('10 Smith St, Sydney NSW 2000');
    expect(formatServiceAddress({ street: '10 Smith St Sydney', suburb: '', state: 'NSW', postcode: '2000' })).toBe('10 Smith St Sydney NSW 2000');
  });
});
