/**
 * Sign-ups from one client address: at most 10 an hour (an office behind one address can still sign up
 * a few people; a script cannot open accounts or send mail at scale). Over it the page answers 429.
 */
export const SIGN_UPS_PER_ADDRESS = 10;
/** Mails to one address an hour (as password resets): more requests get the same answer and no mail. */
export const SIGN_UP_MAILS_PER_EMAIL = 3;
export const SIGN_UP_WINDOW_MS = 60 * 60 * 1000;
/** The emailed link works once, for 24 hours (issue 30). */
export const SIGN_UP_LINK_LIFETIME_MS = 24 * 60 * 60 * 1000;

/**
 * When more may be tried, given the moments of earlier tries (any order): null while fewer than `max`
 * fall inside the window; else the moment enough of them have left it.
 */
export function limitedUntil(tries: readonly Date[], now: Date, max: number, windowMs: number): Date | null {
  const recent = tries.filter((t) => now.getTime() - t.getTime() < windowMs).sort((a, b) => a.getTime() - b.getTime());
  if (recent.length < max) return null;
  return new Date(recent[recent.length - max].getTime() + windowMs);
}
