import { SCRYPT } from '../../src/users/password-hash';

/**
 * The scrypt cost of passwords hashed inside the tests' own process (a jest setup file of the e2e and chaos
 * tiers; unit tests that hash import it). Production's N=2^17 takes 128 MB and a few hundred ms per hash,
 * seconds on a loaded 2-core machine, and the dashboard suites hash or check a password for nearly every
 * account, sign-in and sign-up they make. Here N=2^10 (the least verifyPassword accepts): still a real
 * scrypt hash of the password with its parameters recorded, checked the same way, and the same work for an
 * unknown email (the dummy hash is made at the same cost). The production cost itself is asserted by the
 * unit test of password-hash.ts (which does not lower it); the built service that the CLI and chaos tests
 * start keeps it.
 */
const PRODUCTION_LOG_N = SCRYPT.logN;
export const TEST_SCRYPT_LOG_N = 10;

function setLogN(logN: number): void {
  (SCRYPT as { logN: number }).logN = logN;
}

setLogN(TEST_SCRYPT_LOG_N);

/**
 * Runs `work` with production's cost, for an assertion that depends on what a hash costs (the sign-up
 * timing test: a known email answered without hashing must stand out against the hash).
 */
export async function withProductionPasswordCost<T>(work: () => Promise<T>): Promise<T> {
  setLogN(PRODUCTION_LOG_N);
  try {
    return await work();
  } finally {
    setLogN(TEST_SCRYPT_LOG_N);
  }
}
