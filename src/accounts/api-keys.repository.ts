import { Injectable } from '@nestjs/common';
import { Tx } from '../database/unit-of-work';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, IsNull } from 'typeorm';
import { managerFor, sql } from '../database/sql';
import { ApiKey } from './api-key.entity';
import type { ApiKeyAccess } from './api-key-access';

export interface ActiveKeyRecord {
  apiKeyId: number;
  accountId: number;
  passwordSha256: Buffer;
  isTest: boolean;
  /** Stored scopes plus `purchases` when the key's purchases switch is on. */
  scopes: string[];
  allowedCidrs: string[];
  /** last_used_at is unset or over a minute old: the next successful use records it. */
  lastUseStale: boolean;
}

@Injectable()
export class ApiKeysRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  private repo(tx?: Tx) {
    return managerFor(this.dataSource, tx).getRepository(ApiKey);
  }

  /** One indexed read per request: revocation is seen by every instance on the next request. */
  async findActiveByUsername(username: string): Promise<ActiveKeyRecord | null> {
    const { rows } = await sql<{
      id: number;
      account_id: number;
      password_sha256: Buffer;
      is_test: boolean;
      scopes: string[];
      purchases_enabled: boolean;
      allowed_cidrs: string[];
      last_use_stale: boolean;
    }>(
      this.dataSource,
      `SELECT k.id, k.account_id, k.password_sha256, a.is_test, k.scopes, k.purchases_enabled, k.allowed_cidrs,
              (k.last_used_at IS NULL OR k.last_used_at < now() - interval '1 minute') AS last_use_stale
         FROM api_keys k JOIN accounts a ON a.id = k.account_id
        WHERE k.username = $1 AND k.revoked_at IS NULL`,
      [username],
    );
    const row = rows[0];
    if (!row) return null;
    return {
      apiKeyId: row.id,
      accountId: row.account_id,
      passwordSha256: row.password_sha256,
      isTest: row.is_test,
      scopes: row.purchases_enabled ? [...row.scopes, 'purchases'] : row.scopes,
      allowedCidrs: row.allowed_cidrs,
      lastUseStale: row.last_use_stale,
    };
  }

  /** Records a use, at most once a minute per key whatever the number of instances (the condition makes later writes no-ops). */
  async touchLastUsed(apiKeyId: number): Promise<void> {
    await sql(this.dataSource, `UPDATE api_keys SET last_used_at = now() WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute')`, [apiKeyId]);
  }

  async listActiveForAccount(accountId: number): Promise<ApiKey[]> {
    return this.repo().find({ where: { accountId, revokedAt: IsNull() }, order: { id: 'ASC' } });
  }

  /** Whether an active key of this account may make purchases (false for a revoked or unknown key). */
  async purchasesEnabled(accountId: number, apiKeyId: number): Promise<boolean> {
    const { rows } = await sql<{ purchases_enabled: boolean }>(this.dataSource, `SELECT purchases_enabled FROM api_keys WHERE id = $1 AND account_id = $2 AND revoked_at IS NULL`, [
      apiKeyId,
      accountId,
    ]);
    return rows[0]?.purchases_enabled === true;
  }

  /** An active key of this account, locked until the transaction ends (two changes to one key queue). */
  async findActiveOnAccountForUpdate(accountId: number, apiKeyId: number, tx: Tx): Promise<ApiKey | null> {
    return this.repo(tx).findOne({ where: { id: apiKeyId, accountId, revokedAt: IsNull() }, lock: { mode: 'pessimistic_write' } });
  }

  async revokeById(accountId: number, apiKeyId: number, tx: Tx): Promise<boolean> {
    const { rowCount } = await sql(tx, `UPDATE api_keys SET revoked_at = now() WHERE account_id = $1 AND id = $2 AND revoked_at IS NULL`, [accountId, apiKeyId]);
    return rowCount > 0;
  }

  async setPurchasesById(accountId: number, apiKeyId: number, enabled: boolean, dailyLimitCents: number, tx: Tx): Promise<void> {
    await sql(tx, `UPDATE api_keys SET purchases_enabled = $3, daily_limit_cents = $4 WHERE account_id = $1 AND id = $2 AND revoked_at IS NULL`, [
      accountId,
      apiKeyId,
      enabled,
      dailyLimitCents,
    ]);
  }

  async setAccessById(accountId: number, apiKeyId: number, access: ApiKeyAccess, tx: Tx): Promise<void> {
    await sql(tx, `UPDATE api_keys SET scopes = $3, allowed_cidrs = $4, daily_message_cap = $5 WHERE account_id = $1 AND id = $2 AND revoked_at IS NULL`, [
      accountId,
      apiKeyId,
      access.scopes,
      access.allowedCidrs,
      access.dailyMessageCap,
    ]);
  }

  async insert(accountId: number, fields: { username: string; passwordSha256: Buffer; label: string } & Partial<ApiKeyAccess>, tx?: Tx): Promise<ApiKey> {
    return this.repo(tx).save(this.repo(tx).create({ accountId, ...fields }));
  }

  /** Locks the account's row so two concurrent creations cannot both pass the 10-key check. */
  async countActiveForUpdate(accountId: number, tx: Tx): Promise<number> {
    await tx.manager.query('SELECT id FROM accounts WHERE id = $1 FOR UPDATE', [accountId]);
    return this.repo(tx).count({ where: { accountId, revokedAt: IsNull() } });
  }

  async listForAccount(accountId: number): Promise<ApiKey[]> {
    return this.repo().find({ where: { accountId }, order: { id: 'ASC' } });
  }

  async findByUsername(username: string): Promise<ApiKey | null> {
    return this.repo().findOne({ where: { username } });
  }

  async revoke(username: string): Promise<ApiKey | null> {
    const { rows } = await sql<{ id: number }>(this.dataSource, `UPDATE api_keys SET revoked_at = now() WHERE username = $1 AND revoked_at IS NULL RETURNING id`, [username]);
    return rows.length ? this.findByUsername(username) : null;
  }

  async setPurchases(username: string, enabled: boolean, dailyLimitCents: number | undefined): Promise<ApiKey | null> {
    const key = await this.findByUsername(username);
    if (!key || key.revokedAt) return null;
    key.purchasesEnabled = enabled;
    if (dailyLimitCents !== undefined) key.dailyLimitCents = dailyLimitCents;
    return this.repo().save(key);
  }
}
