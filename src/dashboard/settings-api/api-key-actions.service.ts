import { Injectable } from '@nestjs/common';
import type { ApiKey } from '../../accounts/api-key.entity';
import { AccountsService } from '../../accounts/accounts.service';
import { ApiKeyAccess, DEFAULT_KEY_ACCESS, KeyAccessInput, normaliseKeyAccess } from '../../accounts/api-key-access';
import { ApiKeysService, IssuedApiKey, MAX_ACTIVE_API_KEYS, MAX_DAILY_LIMIT_CENTS, MAX_LABEL_LENGTH } from '../../accounts/api-keys.service';
import { parseCreditsToHundredths } from '../../billing/money';
import { failure } from '../../common/errors/error-catalogue';
import { UnitOfWork } from '../../database/unit-of-work';
import { MailTemplates } from '../../mail/mail-templates';
import { MailService } from '../../mail/mail.service';
import type { Actor } from '../../users/actor';
import { AuditLogService } from '../../users/audit-log.service';
import { can, canAny, PurchaseSettings, purchasesChangeRefusal } from '../../users/permissions';
import { UsersService } from '../../users/users.service';
import { show } from '../format';

/** A daily limit typed in dollars (`500`, `250.50`), in cents; null when it is not such an amount. */
export function parseDailyLimit(text: string): number | null {
  const cents = parseCreditsToHundredths(text.replace(/^\$/, '').replace(/,/g, ''));
  return cents === null || cents > MAX_DAILY_LIMIT_CENTS ? null : cents;
}

/**
 * What people do to API keys in Settings > API, with the interface's rules enforced here on the server:
 * manage_api_keys creates and revokes; purchases and limits follow purchasesChangeRefusal; the owner is
 * emailed when purchases are enabled or a limit is raised. Each change and its audit entry commit together.
 */
@Injectable()
export class ApiKeyActionsService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly keys: ApiKeysService,
    private readonly accounts: AccountsService,
    private readonly users: UsersService,
    private readonly audit: AuditLogService,
    private readonly mail: MailService,
  ) {}

  async list(actor: Actor): Promise<ApiKey[]> {
    if (!canAny(actor, ['manage_api_keys', 'manage_billing'])) throw failure('permissionRequired');
    return this.keys.listActive(actor.accountId);
  }

  /** At most 10 active keys (the API's limit and text); the password is in the answer only. No access asked for: the defaults. */
  async create(actor: Actor, label: string, requested?: KeyAccessInput): Promise<IssuedApiKey> {
    if (!can(actor, 'manage_api_keys')) throw failure('permissionRequired');
    const trimmed = label.trim();
    if (trimmed === '') throw failure('required', 'Label');
    if (trimmed.length > MAX_LABEL_LENGTH) throw failure('apiKeyLabelTooLong');
    const access = requested ? normaliseKeyAccess(requested) : DEFAULT_KEY_ACCESS;
    return this.uow.run(async (tx) => {
      const key = await this.keys.issue(actor.accountId, trimmed, tx, access);
      await this.audit.record(actor, 'api_key.created', `${trimmed} (${key.username}): ${describeAccess(access)}`, tx);
      return key;
    });
  }

  async revoke(actor: Actor, apiKeyId: number): Promise<void> {
    if (!can(actor, 'manage_api_keys')) throw failure('permissionRequired');
    await this.uow.run(async (tx) => {
      const key = await this.keys.lockOnAccount(actor.accountId, apiKeyId, tx);
      await this.keys.revokeOnAccount(actor.accountId, apiKeyId, tx);
      await this.audit.record(actor, 'api_key.revoked', `${key.label} (${key.username})`, tx);
    });
  }

  async get(actor: Actor, apiKeyId: number): Promise<ApiKey> {
    const key = (await this.list(actor)).find((k) => k.id === apiKeyId);
    if (!key) throw failure('apiKeyNotFoundOnAccount');
    return key;
  }

  /** Replaces the key's scopes (purchases aside), allow-list and daily cap; manage_api_keys, audited with before and after. */
  async changeAccess(actor: Actor, apiKeyId: number, requested: KeyAccessInput): Promise<void> {
    if (!can(actor, 'manage_api_keys')) throw failure('permissionRequired');
    const access = normaliseKeyAccess(requested);
    await this.uow.run(async (tx) => {
      const key = await this.keys.lockOnAccount(actor.accountId, apiKeyId, tx);
      const before = describeAccess({ scopes: key.scopes, allowedCidrs: key.allowedCidrs, dailyMessageCap: key.dailyMessageCap });
      const after = describeAccess(access);
      if (before === after) return;
      await this.keys.setAccessOnAccount(actor.accountId, apiKeyId, access, tx);
      await this.audit.record(actor, 'api_key.access_changed', `${key.label} (${key.username}): ${before} → ${after}`, tx);
    });
  }

  /** Sets the key's purchases switch and daily limit (cents; undefined keeps it) within the role rules. */
  async changePurchases(actor: Actor, apiKeyId: number, change: { enabled: boolean; dailyLimitCents?: number }): Promise<void> {
    if (!canAny(actor, ['manage_api_keys', 'manage_billing'])) throw failure('permissionRequired');
    const owner = await this.users.ownerOf(actor.accountId);
    await this.uow.run(async (tx) => {
      const key = await this.keys.lockOnAccount(actor.accountId, apiKeyId, tx);
      const before: PurchaseSettings = { enabled: key.purchasesEnabled, dailyLimitCents: key.dailyLimitCents };
      const after: PurchaseSettings = { enabled: change.enabled, dailyLimitCents: change.dailyLimitCents ?? key.dailyLimitCents };
      const refusal = purchasesChangeRefusal(actor, before, after);
      if (refusal) throw failure(refusal);
      if (before.enabled === after.enabled && before.dailyLimitCents === after.dailyLimitCents) return;
      await this.keys.setPurchasesOnAccount(actor.accountId, apiKeyId, after, tx);
      const name = `${key.label} (${key.username})`;
      if (after.enabled !== before.enabled) await this.audit.record(actor, after.enabled ? 'api_key.purchases_enabled' : 'api_key.purchases_disabled', name, tx);
      if (after.dailyLimitCents !== before.dailyLimitCents) {
        const raised = after.dailyLimitCents > before.dailyLimitCents;
        await this.audit.record(
          actor,
          raised ? 'api_key.daily_limit_raised' : 'api_key.daily_limit_lowered',
          `${name}: $${show.dollars(before.dailyLimitCents)} → $${show.dollars(after.dailyLimitCents)}`,
          tx,
        );
      }
      if (!owner) return;
      const account = await this.accounts.get(actor.accountId, tx);
      const facts = { accountName: account.name, keyLabel: key.label, username: key.username, by: actor.email };
      if (!before.enabled && after.enabled) {
        const mail = MailTemplates.purchasesEnabled(owner.email, { ...facts, dailyLimit: show.dollars(after.dailyLimitCents) });
        tx.afterCommit(() => this.mail.send(mail));
      }
      if (after.dailyLimitCents > before.dailyLimitCents) {
        const mail = MailTemplates.dailyLimitRaised(owner.email, { ...facts, fromAmount: show.dollars(before.dailyLimitCents), toAmount: show.dollars(after.dailyLimitCents) });
        tx.afterCommit(() => this.mail.send(mail));
      }
    });
  }
}

/** `scopes messages:send, messages:read; from any address; no daily cap`: what the audit log records. */
export function describeAccess(access: ApiKeyAccess): string {
  const from = access.allowedCidrs.length ? `from ${access.allowedCidrs.join(', ')}` : 'from any address';
  const cap = access.dailyMessageCap === null ? 'no daily cap' : `daily cap ${access.dailyMessageCap}`;
  return `scopes ${access.scopes.join(', ')}; ${from}; ${cap}`;
}

export { MAX_ACTIVE_API_KEYS };
