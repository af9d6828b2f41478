import { Injectable } from '@nestjs/common';
import { failure } from '../common/errors/error-catalogue';
import { ApiKey } from './api-key.entity';
import { ApiKeysRepository } from './api-keys.repository';
import { ApiKeyAccess, DEFAULT_KEY_ACCESS } from './api-key-access';
import { newApiPassword, newApiUsername, sha256 } from './secrets';
import { Tx, UnitOfWork } from '../database/unit-of-work';

export const MAX_ACTIVE_API_KEYS = 10;
/** The longest label a key may have (trimmed): Settings › API and key:create refuse more. */
export const MAX_LABEL_LENGTH = 100;
/** The highest daily limit a key may have: A$1,000,000.00 (in cents); the Settings page and key:purchases refuse more. */
export const MAX_DAILY_LIMIT_CENTS = 100_000_000;

/** A key as issued: the password is shown this once and only its digest is kept. */
export interface IssuedApiKey {
  apiKeyId: number;
  username: string;
  password: string;
  label: string;
}

@Injectable()
export class ApiKeysService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly apiKeys: ApiKeysRepository,
  ) {}

  /** A new key: every scope but purchases, any address, no cap, unless `access` (normaliseKeyAccess) says otherwise. */
  async issue(accountId: number, label: string, manager?: Tx, access: ApiKeyAccess = DEFAULT_KEY_ACCESS): Promise<IssuedApiKey> {
    return this.uow.runIn(manager, async (m) => {
      const active = await this.apiKeys.countActiveForUpdate(accountId, m);
      if (active >= MAX_ACTIVE_API_KEYS) throw failure('tooManyApiKeys');
      const username = newApiUsername();
      const password = newApiPassword();
      const key = await this.apiKeys.insert(accountId, { username, passwordSha256: sha256(password), label, ...access }, m);
      return { apiKeyId: key.id, username, password, label };
    });
  }

  async revoke(username: string): Promise<ApiKey> {
    const key = await this.apiKeys.revoke(username);
    if (!key) throw failure('apiKeyNotFound', username);
    return key;
  }

  async list(accountId: number): Promise<ApiKey[]> {
    return this.apiKeys.listForAccount(accountId);
  }

  /** Active keys, oldest first (the dashboard's Settings > API). */
  async listActive(accountId: number): Promise<ApiKey[]> {
    return this.apiKeys.listActiveForAccount(accountId);
  }

  /** The key's purchases switch, read without a lock (the purchase checks it again under the key's lock). */
  purchasesEnabled(accountId: number, apiKeyId: number): Promise<boolean> {
    return this.apiKeys.purchasesEnabled(accountId, apiKeyId);
  }

  /** An active key of the account, locked for the caller's transaction. */
  async lockOnAccount(accountId: number, apiKeyId: number, tx: Tx): Promise<ApiKey> {
    const key = await this.apiKeys.findActiveOnAccountForUpdate(accountId, apiKeyId, tx);
    if (!key) throw failure('apiKeyNotFoundOnAccount');
    return key;
  }

  /** Revokes at once: the key's next request fails on every instance. */
  async revokeOnAccount(accountId: number, apiKeyId: number, tx: Tx): Promise<void> {
    if (!(await this.apiKeys.revokeById(accountId, apiKeyId, tx))) throw failure('apiKeyNotFoundOnAccount');
  }

  async setPurchasesOnAccount(accountId: number, apiKeyId: number, settings: { enabled: boolean; dailyLimitCents: number }, tx: Tx): Promise<void> {
    await this.apiKeys.setPurchasesById(accountId, apiKeyId, settings.enabled, settings.dailyLimitCents, tx);
  }

  /** Replaces the key's scopes (purchases aside), allow-list and daily cap; the caller holds the key's lock. */
  async setAccessOnAccount(accountId: number, apiKeyId: number, access: ApiKeyAccess, tx: Tx): Promise<void> {
    await this.apiKeys.setAccessById(accountId, apiKeyId, access, tx);
  }

  async setPurchases(username: string, enabled: boolean, dailyLimitCents?: number): Promise<ApiKey> {
    const key = await this.apiKeys.setPurchases(username, enabled, dailyLimitCents);
    if (!key) throw failure('apiKeyNotFound', username);
    return key;
  }
}
