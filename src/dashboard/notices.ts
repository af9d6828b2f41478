/** Confirmations shown once after an action, chosen by a code in the redirect's query (never free text from the URL). */
export const NOTICES = {
  signed_out: 'You have signed out.',
  password_set: 'Your password is set. Sign in with it.',
  password_changed: 'Your password is changed. Your other sessions have been signed out.',
  renamed: 'Your name is saved.',
  key_revoked: 'The API key is revoked. Requests made with it are refused from now on.',
  purchases_saved: 'Purchase settings saved.',
  webhooks_saved: 'Webhook URLs saved.',
  invited: 'Invitation sent.',
  invitation_resent: 'A new invitation link was sent.',
  permissions_saved: 'Permissions saved.',
  user_removed: 'The user is removed and signed out.',
  ownership_transferred: 'Ownership transferred. You keep every permission, but no longer manage users.',
} as const;

export type NoticeCode = keyof typeof NOTICES;

export function noticeFor(code: unknown): string | undefined {
  return typeof code === 'string' && Object.prototype.hasOwnProperty.call(NOTICES, code) ? NOTICES[code as NoticeCode] : undefined;
}

export function withNotice(path: string, code: NoticeCode): string {
  return `${path}${path.includes('?') ? '&' : '?'}notice=${code}`;
}
