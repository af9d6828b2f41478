import type { CarrierSecret } from './carrier-secret';
import type { StoredCarrier } from './carriers.repository';

/** A row written by hand may hold no password (an empty value): there is nothing to open or reseal. */
export function hasStoredPassword(carrier: Pick<StoredCarrier, 'passwordSealed'>): boolean {
  return carrier.passwordSealed.length > 0;
}

/**
 * Names of the carriers whose stored password `secret` does not open, leaving out `exceptId` (the one
 * about to be given a new password) and those with none stored. A password sealed under a key the workers
 * do not hold stops its carrier, so nothing is stored while this is not empty.
 */
export function carriersNotOpened(secret: CarrierSecret, carriers: readonly StoredCarrier[], exceptId: number | null = null): string[] {
  return carriers.filter((c) => c.id !== exceptId && hasStoredPassword(c) && !secret.opens(c.passwordSealed)).map((c) => c.name);
}

/** "the stored passwords of carriers optus, telstra" (one: "the stored password of carrier optus"). */
export function storedPasswordsOf(names: readonly string[]): string {
  const s = names.length === 1 ? '' : 's';
  return `the stored password${s} of carrier${s} ${names.join(', ')}`;
}

/** Why a password sealed under this CLI's key is not stored: the other carriers' passwords are under another. */
export function keyMismatch(names: readonly string[]): string {
  return `CARRIER_SECRET_KEY does not open ${storedPasswordsOf(names)}: use the key the workers use (to change keys, see carrier:rekey)`;
}

/**
 * Every stored password opened with `old` and sealed again under `next` (carrier:rekey), or the names of
 * the carriers `old` does not open: then nothing is to be written.
 */
export function resealUnder(
  old: CarrierSecret,
  next: CarrierSecret,
  carriers: readonly StoredCarrier[],
): { refused: string[]; resealed: Array<{ id: number; passwordSealed: Buffer }> } {
  const stored = carriers.filter(hasStoredPassword);
  const refused = carriersNotOpened(old, stored);
  if (refused.length > 0) return { refused, resealed: [] };
  return { refused, resealed: stored.map((c) => ({ id: c.id, passwordSealed: next.seal(old.open(c.passwordSealed)) })) };
}

/** Why carrier:rekey wrote nothing; a second run after a rotation finds the passwords under the new key already. */
export function oldKeyMismatch(names: readonly string[], openWithNewKey: boolean): string {
  const already = openWithNewKey ? ` (${names.length === 1 ? 'it opens' : 'they open'} with CARRIER_SECRET_KEY: already resealed?)` : '';
  return `the old key does not open ${storedPasswordsOf(names)}${already}: nothing was resealed`;
}
