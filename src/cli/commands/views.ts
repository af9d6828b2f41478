import type { ApiKey } from '../../accounts/api-key.entity';
import type { UserRecord } from '../../users/users.repository';

/** A user and, when one was just issued, their single-use set-password link (also emailed). */
export function userView(user: UserRecord, link?: string) {
  return {
    user_id: user.id,
    account_id: user.accountId,
    email: user.email,
    owner: user.isOwner,
    permissions: user.permissions,
    ...(link === undefined ? {} : { set_password_link: link }),
  };
}

export function keyView(key: ApiKey) {
  return {
    api_key_id: key.id,
    api_username: key.username,
    label: key.label,
    purchases_enabled: key.purchasesEnabled,
    daily_limit: Number((key.dailyLimitCents / 100).toFixed(2)),
    // Scopes as the API applies them: the stored ones, and purchases when the switch is on.
    scopes: [...key.scopes, ...(key.purchasesEnabled ? ['purchases'] : [])],
    allowed_cidrs: key.allowedCidrs,
    daily_message_cap: key.dailyMessageCap,
    created_at: key.createdAt.toISOString(),
    revoked_at: key.revokedAt ? key.revokedAt.toISOString() : null,
  };
}
