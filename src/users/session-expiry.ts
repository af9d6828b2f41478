/** A session ends after 12 hours without a request, and 7 days after sign-in whatever happens (issue 11). */
export const SESSION_IDLE_MS = 12 * 60 * 60 * 1000;
export const SESSION_ABSOLUTE_MS = 7 * 24 * 60 * 60 * 1000;
/** last_seen_at is written at most once a minute per session, not on every page. */
export const SESSION_TOUCH_EVERY_MS = 60 * 1000;

export function sessionExpired(session: { createdAt: Date; lastSeenAt: Date }, now: Date): boolean {
  const t = now.getTime();
  return t - session.lastSeenAt.getTime() >= SESSION_IDLE_MS || t - session.createdAt.getTime() >= SESSION_ABSOLUTE_MS;
}

export function sessionNeedsTouch(session: { lastSeenAt: Date }, now: Date): boolean {
  return now.getTime() - session.lastSeenAt.getTime() >= SESSION_TOUCH_EVERY_MS;
}
