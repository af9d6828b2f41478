import { Injectable } from '@nestjs/common';
import type { Caller } from '../common/auth/authenticated-request';
import { CallerVerifier } from '../common/auth/caller-verifier';
import { isStorableText } from '../common/validation/storable-text';
import { ApiKeysRepository } from './api-keys.repository';
import { digestsEqual, sha256 } from './secrets';

// Compared against when the username is unknown, so a miss costs the same as a wrong password.
const DUMMY_DIGEST = sha256('no such key');

@Injectable()
export class CredentialsService implements CallerVerifier {
  constructor(private readonly apiKeys: ApiKeysRepository) {}

  /** The caller for a username and password, or null when they match no active key. A match records the key's last use (at most once a minute). */
  async verify(username: string, password: string): Promise<Caller | null> {
    // A username no key can have (NUL, unpaired surrogates) is a miss, not a query PostgreSQL refuses.
    const key = isStorableText(username) ? await this.apiKeys.findActiveByUsername(username) : null;
    const matches = digestsEqual(sha256(password), key?.passwordSha256 ?? DUMMY_DIGEST);
    if (!key || !matches) return null;
    if (key.lastUseStale) await this.apiKeys.touchLastUsed(key.apiKeyId);
    return { accountId: key.accountId, apiKeyId: key.apiKeyId, isTest: key.isTest, scopes: key.scopes, allowedCidrs: key.allowedCidrs };
  }
}
