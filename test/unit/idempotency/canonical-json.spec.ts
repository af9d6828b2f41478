import { canonicalJson, fingerprintOf } from '../../../src/idempotency/canonical-json';

describe(canonicalJson.name, () => {
  it('sorts object keys at every level and keeps array order', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: null } })).toBe('{"a":{"c":null,"d":[3,{"y":2,"z":1}]},"b":1}');
  });

  it('gives the same fingerprint to re-serialised JSON and a different one to a different body', () => {
    expect(fingerprintOf(JSON.parse('{"x":1,"y":[1,2]}')).equals(fingerprintOf({ y: [1, 2], x: 1 }))).toBe(true);
    expect(fingerprintOf({ y: [2, 1], x: 1 }).equals(fingerprintOf({ y: [1, 2], x: 1 }))).toBe(false);
  });
});
