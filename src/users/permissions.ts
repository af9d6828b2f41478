/** What a user other than the owner may be allowed to do (the owner can do everything and manages users). */
export const PERMISSIONS = ['manage_api_keys', 'manage_billing', 'manage_senders', 'manage_settings', 'send_messages', 'manage_contacts', 'read_inbox'] as const;
export type Permission = (typeof PERMISSIONS)[number];

export const PERMISSION_LABELS: Record<Permission, string> = {
  manage_api_keys: 'Manage API keys',
  manage_billing: 'Manage billing',
  manage_senders: 'Manage sender IDs',
  manage_settings: 'Manage settings (webhooks, time zone, quiet hours)',
  send_messages: 'Send messages',
  manage_contacts: 'Manage contacts and opt-outs',
  read_inbox: 'Read and answer the inbox',
};

export interface Principal {
  isOwner: boolean;
  permissions: readonly string[];
}

export function isPermission(value: string): value is Permission {
  return (PERMISSIONS as readonly string[]).includes(value);
}

export function can(principal: Principal, permission: Permission): boolean {
  return principal.isOwner || principal.permissions.includes(permission);
}

export function canAny(principal: Principal, permissions: readonly Permission[]): boolean {
  return permissions.some((p) => can(principal, p));
}

export interface PurchaseSettings {
  enabled: boolean;
  dailyLimitCents: number;
}

/**
 * Interface, Authentication 7: only users who can manage billing can enable purchases or raise a key's
 * daily limit; users who can manage API keys can disable purchases or lower a limit. Answers the
 * condition that refuses the change, or null when the principal may make it (a change of nothing
 * still needs one of the two permissions).
 */
export function purchasesChangeRefusal(
  principal: Principal,
  before: PurchaseSettings,
  after: PurchaseSettings,
): 'purchasesEnableNeedsBilling' | 'dailyLimitRaiseNeedsBilling' | 'permissionRequired' | null {
  const billing = can(principal, 'manage_billing');
  if (!billing && !can(principal, 'manage_api_keys')) return 'permissionRequired';
  if (!before.enabled && after.enabled && !billing) return 'purchasesEnableNeedsBilling';
  if (after.dailyLimitCents > before.dailyLimitCents && !billing) return 'dailyLimitRaiseNeedsBilling';
  return null;
}
