import type { Caller } from './authenticated-request';

/**
 * Checks an API username and password. The accounts domain provides it; the Basic guard (here, low in
 * common/) depends only on this contract, so common/ imports no domain.
 */
export abstract class CallerVerifier {
  /** The caller for a username and password, or null when they match no active key. */
  abstract verify(username: string, password: string): Promise<Caller | null>;
}
