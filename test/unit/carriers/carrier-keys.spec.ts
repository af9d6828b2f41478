import { randomBytes } from 'node:crypto';
import { carriersNotOpened, keyMismatch, oldKeyMismatch, resealUnder } from '../../../src/carriers/carrier-keys';
import { CarrierSecret } from '../../../src/carriers/carrier-secret';
import type { StoredCarrier } from '../../../src/carriers/carriers.repository';

const ours = CarrierSecret.fromKeyText(randomBytes(32).toString('hex'));
const theirs = CarrierSecret.fromKeyText(randomBytes(32).toString('hex'));

function stored(id: number, name: string, passwordSealed: Buffer): StoredCarrier {
  return { id, name, passwordSealed } as StoredCarrier;
}

describe(carriersNotOpened.name, () => {
  it('names the carriers whose password the key does not open, leaving out the one being changed and those with none stored', () => {
    const carriers = [stored(1, 'optus', theirs.seal('a')), stored(2, 'vodafone', ours.seal('b')), stored(3, 'telstra', theirs.seal('c')), stored(4, 'bare', Buffer.alloc(0))];
    expect(carriersNotOpened(ours, carriers)).toEqual(['optus', 'telstra']);
    expect(carriersNotOpened(ours, carriers, 3)).toEqual(['optus']);
    expect(carriersNotOpened(theirs, carriers)).toEqual(['vodafone']);
  });

  it('accepts any key when no other password is stored', () => {
    expect(carriersNotOpened(ours, [])).toEqual([]);
    expect(carriersNotOpened(ours, [stored(1, 'optus', theirs.seal('a'))], 1)).toEqual([]);
    expect(carriersNotOpened(ours, [stored(2, 'bare', Buffer.alloc(0))])).toEqual([]);
  });

  it('says which carriers, never a key or a password', () => {
    expect(keyMismatch(['optus', 'telstra'])).toBe(
      'CARRIER_SECRET_KEY does not open the stored passwords of carriers optus, telstra: use the key the workers use (to change keys, see carrier:rekey)',
    );
    expect(keyMismatch(['optus'])).toBe('CARRIER_SECRET_KEY does not open the stored password of carrier optus: use the key the workers use (to change keys, see carrier:rekey)');
  });
});

describe(resealUnder.name, () => {
  it('opens every stored password with the old key and seals it under the new one, leaving out those with none', () => {
    const carriers = [stored(1, 'optus', theirs.seal('a')), stored(2, 'bare', Buffer.alloc(0)), stored(3, 'telstra', theirs.seal('c'))];
    const { refused, resealed } = resealUnder(theirs, ours, carriers);
    expect(refused).toEqual([]);
    expect(resealed.map((r) => [r.id, ours.open(r.passwordSealed)])).toEqual([
      [1, 'a'],
      [3, 'c'],
    ]);
  });

  it('reseals nothing when the old key does not open one of them, and names it', () => {
    const carriers = [stored(1, 'optus', theirs.seal('a')), stored(3, 'telstra', ours.seal('c'))];
    expect(resealUnder(theirs, ours, carriers)).toEqual({ refused: ['telstra'], resealed: [] });
    expect(oldKeyMismatch(['telstra'], false)).toBe('the old key does not open the stored password of carrier telstra: nothing was resealed');
    expect(oldKeyMismatch(['optus', 'telstra'], true)).toBe(
      'the old key does not open the stored passwords of carriers optus, telstra (they open with CARRIER_SECRET_KEY: already resealed?): nothing was resealed',
    );
  });
});
