import type { AuditAction } from '../../users/audit-log.service';

/** How the audit log page names each action. */
export const AUDIT_LABELS: Record<AuditAction, string> = {
  signed_in: 'Signed in',
  signed_out: 'Signed out',
  'password.set': 'Set their password (invitation)',
  'password.reset': 'Reset their password',
  'password.changed': 'Changed their password',
  'profile.renamed': 'Changed their name',
  'user.created': 'Created user',
  'user.invited': 'Invited user',
  'user.invitation_resent': 'Sent a new invitation',
  'user.permissions_changed': 'Changed permissions',
  'user.removed': 'Removed user',
  'ownership.transferred': 'Transferred ownership',
  'api_key.created': 'Created API key',
  'api_key.revoked': 'Revoked API key',
  'api_key.purchases_enabled': 'Enabled purchases',
  'api_key.purchases_disabled': 'Disabled purchases',
  'api_key.daily_limit_raised': 'Raised daily limit',
  'api_key.daily_limit_lowered': 'Lowered daily limit',
  'webhooks.updated': 'Changed webhook URLs',
  'webhooks.secret_rotated': 'Rotated the webhook signing secret',
};
