/**
 * How failed sign-ins slow further tries (issue 33). Tries wait per (email, client address) pair, so
 * someone guessing from elsewhere can never lock the real user out, and per client address only after
 * many failures, so one shared office address is not locked out by a few typos. The wait grows with
 * each failure past the free ones instead of a flat lockout: a person who mistypes waits seconds, a
 * guesser soon waits the maximum for every try.
 */
export interface ThrottlePolicy {
  /** Failures within the window that cost nothing. */
  freeFailures: number;
  windowMs: number;
  /** The wait after the first failure past the free ones; it doubles with each further failure. */
  firstWaitMs: number;
  maxWaitMs: number;
}

export const SIGN_IN_WINDOW_MS = 15 * 60 * 1000;

/** One email from one address: 5 free tries (typos), then 30 s, 1 min, 2 min … up to 15 minutes per try. */
export const PAIR_POLICY: ThrottlePolicy = { freeFailures: 5, windowMs: SIGN_IN_WINDOW_MS, firstWaitMs: 30_000, maxWaitMs: SIGN_IN_WINDOW_MS };
/** One address, any emails: 50 free (an office behind one address), then the same growing wait. */
export const ADDRESS_POLICY: ThrottlePolicy = { freeFailures: 50, windowMs: SIGN_IN_WINDOW_MS, firstWaitMs: 30_000, maxWaitMs: SIGN_IN_WINDOW_MS };
/** Failures of one email within the window, from anywhere, that make us tell its user (once per window). */
export const SIGN_IN_ALERT_FAILURES = 10;

/** When tries may resume given the failures of the window (any order); null when they may now. */
export function throttledUntil(failures: readonly Date[], now: Date, policy: ThrottlePolicy): Date | null {
  const recent = failures.filter((f) => now.getTime() - f.getTime() < policy.windowMs);
  if (recent.length < policy.freeFailures) return null;
  const latest = Math.max(...recent.map((f) => f.getTime()));
  const wait = Math.min(policy.maxWaitMs, policy.firstWaitMs * 2 ** (recent.length - policy.freeFailures));
  const until = latest + wait;
  return until > now.getTime() ? new Date(until) : null;
}

/** Whole seconds to wait, at least 1 (Retry-After and the page's text). */
export function secondsUntil(until: Date, now: Date): number {
  return Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 1000));
}

/** `30 seconds`, `1 minute`, `4 minutes`: what the sign-in page says. */
export function waitText(seconds: number): string {
  if (seconds < 60) return `${seconds} second${seconds === 1 ? '' : 's'}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
}
