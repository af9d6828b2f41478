/** Confirmations shown once after an action, chosen by a code in the redirect's query (never free text from the URL). */
export const NOTICES = {
  signed_out: 'You have signed out.',
  password_set: 'Your password is set. Sign in with it.',
  password_changed: 'Your password is changed. Your other sessions have been signed out.',
  renamed: 'Your name is saved.',
  two_factor_off: 'Two-factor sign-in is off. You sign in with your password alone.',
  two_factor_required: 'Two-factor sign-in is now required: every user without it sets it up before they can open another page.',
  two_factor_optional: 'Two-factor sign-in is no longer required. Users who have it keep it.',
  brake_released: 'Sending is released. The volume that paused it now counts as the account’s normal level.',
  two_factor_reset: 'Two-factor sign-in is reset for this user. They set it up again with their app.',
  key_revoked: 'The API key is revoked. Requests made with it are refused from now on.',
  purchases_saved: 'Purchase settings saved.',
  key_access_saved: 'Key access saved: scopes, allowed addresses and daily cap apply from the next request.',
  webhooks_saved: 'Webhook URLs saved.',
  webhook_test_sent: 'A test webhook is on its way. It shows under Recent deliveries once attempted.',
  webhooks_redelivered: 'Redelivery started. Each event gets one more attempt, shown under Recent deliveries.',
  webhooks_none_to_redeliver: 'No failed webhook events in those days: nothing to redeliver.',
  invited: 'Invitation sent.',
  invitation_resent: 'A new invitation link was sent.',
  permissions_saved: 'Permissions saved.',
  user_removed: 'The user is removed and signed out.',
  ownership_transferred: 'Ownership transferred. You keep every permission, but no longer manage users.',
  own_link_sent: 'We texted a confirmation link to the number. It becomes a sender when the link is opened (within 24 hours).',
  own_link_resent: 'We texted a new confirmation link to the number. Earlier links no longer work.',
  sender_deactivated: 'The sender is deactivated. Messages can no longer be sent from it.',
  free_number_claimed: 'Your free dedicated number is active.',
  registration_submitted: 'Registration submitted. We email you when it has been reviewed.',
  card_added: 'The card is saved.',
  card_removed: 'The card is removed. It will not be charged again.',
  billing_email_saved: 'Billing notification address saved.',
  registration_reactivated: 'This Sender ID was already approved for your account: it is active again.',
  contact_added: 'Contact added.',
  contact_saved: 'Contact saved.',
  contact_deleted: 'Contact deleted. It is no longer in any list.',
  list_created: 'List created.',
  list_exists: 'A list with this name already exists: here it is.',
  list_renamed: 'List renamed.',
  list_deleted: 'List deleted.',
  list_and_contacts_deleted: 'List deleted, and its contacts with it.',
  member_added: 'Added to the list.',
  member_already: 'That contact was already in the list.',
  member_removed: 'Removed from the list. The contact itself is kept.',
  auto_recharge_on: 'Auto-recharge is on. It buys credits when a send takes the balance below the threshold.',
  auto_recharge_off: 'Auto-recharge is off.',
  warning_saved: 'Low-balance warning saved. The owner is emailed when a send takes the balance below it.',
  warning_off: 'Low-balance warning switched off.',
  live_requested: 'Request sent. We review it and email you the answer; this page shows where it stands.',
  signed_up: 'Your email is confirmed and your test account is open. Create your first API key to try the API.',
  optout_added: 'Added to the opt-outs. It has left every list, and its scheduled messages are cancelled.',
  optout_already: 'That number was already on the opt-out list.',
  optout_removed: 'Removed from the opt-outs. The account can message this number again.',
  reply_sent: 'Reply sent.',
  import_started: 'The import has started. This page follows it until it is complete.',
  keyword_rule_created: 'Keyword rule added.',
  keyword_rule_updated: 'Keyword rule saved.',
  keyword_rule_deleted: 'Keyword rule deleted. The rules after it moved up one place.',
  quiet_hours_saved: 'Quiet hours saved.',
  time_zone_saved: 'Time zone saved. Every page and export now shows times in it.',
  send_queued: 'Sent: the messages are on their way. This page shows their progress.',
  send_scheduled: 'Scheduled. The messages go at the time shown; until then you can cancel them here.',
  send_held: 'Held by quiet hours: messages outside the allowed hours go when sending is next allowed; until then you can cancel them here.',
  campaign_cancelled: 'Cancelled: the scheduled messages will not be sent, and what they cost is refunded.',
  nothing_to_cancel: 'Nothing was left to cancel: every message had already gone.',
  send_already_submitted: 'This form was already sent, so nothing was sent again. Here is that send.',
} as const;

export type NoticeCode = keyof typeof NOTICES;

/** Notices that report something still waiting rather than done: shown in the warning style, not the success one. */
const WARNING_NOTICES: ReadonlySet<string> = new Set<NoticeCode>(['send_held']);

/** The layout's style for a notice code: `warn`, or undefined for the usual success style. */
export function noticeTone(code: unknown): 'warn' | undefined {
  return typeof code === 'string' && WARNING_NOTICES.has(code) ? 'warn' : undefined;
}

export function noticeFor(code: unknown): string | undefined {
  return typeof code === 'string' && Object.prototype.hasOwnProperty.call(NOTICES, code) ? NOTICES[code as NoticeCode] : undefined;
}

/**
 * The held send's notice, with the time the earliest message quiet hours moved now goes (`held_until`, ms,
 * set by the send page's redirect beside the code). Only the messages outside the allowed hours wait: a
 * staggered or scheduled send may be held in part.
 */
export function heldNotice(query: Record<string, unknown>, showTime: (at: Date) => string): string {
  const until = typeof query.held_until === 'string' && /^\d{1,15}$/.test(query.held_until) ? new Date(Number(query.held_until)) : null;
  if (!until) return NOTICES.send_held;
  return `Held by quiet hours until ${showTime(until)}: messages outside the allowed hours go when sending is next allowed; until then you can cancel them here.`;
}

/** The send page's redirect after a send quiet hours held: the notice code and when its earliest held message goes. */
export function withHeldNotice(path: string, heldUntil: Date): string {
  return `${withNotice(path, 'send_held')}&held_until=${heldUntil.getTime()}`;
}

export function withNotice(path: string, code: NoticeCode): string {
  return `${path}${path.includes('?') ? '&' : '?'}notice=${code}`;
}
