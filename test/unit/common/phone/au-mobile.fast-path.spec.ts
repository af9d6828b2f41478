import type * as Phone from '../../../../src/common/phone';

// The library is required lazily, so counting its loads shows which path ran.
describe('normaliseAuMobile fast path', () => {
  let loads: Record<string, number>;
  let phone: typeof Phone;

  beforeEach(() => {
    loads = { core: 0, max: 0 };
    jest.isolateModules(() => {
      for (const entry of ['core', 'max'] as const) {
        jest.doMock(`libphonenumber-js/${entry}`, () => {
          loads[entry]++;
          return jest.requireActual(`libphonenumber-js/${entry}`);
        });
      }
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- a fresh module instance per test
      phone = require('../../../../src/common/phone') as typeof Phone;
    });
  });

  afterEach(() => jest.resetModules());

  it('normalises 10000 common-form numbers without loading libphonenumber-js', () => {
    const forms = ['04%', '4%', '614%', '+614%', '6104%', '+61 (0) 4%', '0061 4%', '(04) %'];
    const inputs = Array.from({ length: 10_000 }, (_, i) => forms[i % forms.length].replace('%', String(10_000_000 + i * 7_919).slice(-8)));
    const results = phone.normaliseAuMobiles(inputs);
    expect(results.filter((r) => r === null)).toEqual([]);
    expect(results.every((r) => phone.isAuMobile(r!))).toBe(true);
    expect(phone.normaliseAuMobiles(['0298765432', '+14155552671', 'abc', ''])).toEqual([null, null, null, null]);
    expect(loads).toEqual({ core: 0, max: 0 });
  });

  it('uses libphonenumber-js for unicode digits, and its full metadata only for diagnostics', () => {
    expect(phone.normaliseAuMobile('０４１２３４５６７８')).toBe('61412345678');
    expect(loads).toEqual({ core: 1, max: 0 });
    expect(phone.describeNonMobile('0298765432')).toBe('landline');
    expect(loads.max).toBe(1);
  });
});
