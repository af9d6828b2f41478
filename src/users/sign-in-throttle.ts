/** After 5 failed sign-ins within 15 minutes (per email, and per client address) further tries wait (issue 11). */
export const SIGN_IN_MAX_FAILURES = 5;
export const SIGN_IN_WINDOW_MS = 15 * 60 * 1000;

/**
 * When tries may resume, given the failures of the last window (any order): null while fewer than the
 * maximum; else the moment enough of them have aged out of the window to be below it again.
 */
export function throttledUntil(failuresInWindow: readonly Date[], now: Date): Date | null {
  const recent = failuresInWindow.filter((f) => now.getTime() - f.getTime() < SIGN_IN_WINDOW_MS).sort((a, b) => a.getTime() - b.getTime());
  if (recent.length < SIGN_IN_MAX_FAILURES) return null;
  return new Date(recent[recent.length - SIGN_IN_MAX_FAILURES].getTime() + SIGN_IN_WINDOW_MS);
}

/** Whole minutes to wait, at least 1 (what the sign-in page says). */
export function minutesUntil(until: Date, now: Date): number {
  return Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 60_000));
}
