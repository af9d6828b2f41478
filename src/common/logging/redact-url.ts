/**
 * Paths whose next segment is a secret (single-use set-password and reset links; own-mobile confirmation
 * links; opt-out links, whose per-recipient code unsubscribes that recipient).
 */
const SECRET_SEGMENT_AFTER = ['/set-password/', '/senders/confirm/', '/o/'];

/** The URL as it may be logged: secret path segments replaced. */
export function redactUrl(url: string): string {
  for (const prefix of SECRET_SEGMENT_AFTER) {
    if (url.startsWith(prefix)) return prefix + '[redacted]' + url.slice(prefix.length).replace(/^[^/?#]*/, '');
  }
  return url;
}
