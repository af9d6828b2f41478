/**
 * Single-use links mailed or texted by the service: set password and reset (emailed), the own-mobile
 * confirmation link (texted). Their tokens are cut from every log line, wherever they appear (redact.ts).
 */
export const LINK_TOKEN_PATHS = ['/set-password/', '/senders/confirm/'];

/**
 * Paths whose next segment is a secret in a request's URL: the links above; the sign-up link (cut from
 * request URLs only: without SMTP_URL the sign-up mail, link included, is logged on purpose so a developer
 * can sign up); opt-out links, whose per-recipient code unsubscribes that recipient.
 */
const SECRET_SEGMENT_AFTER = [...LINK_TOKEN_PATHS, '/sign-up/verify/', '/o/'];

/**
 * The URL as every request log line carries it (request completed, request failed): a secret path segment
 * replaced. Matched on the path as the router reads it (escapes decoded: `/%6F/…` reaches `/o/:code`) and
 * also in another letter case, with doubled slashes or in absolute form, so no spelling of a link a client
 * sends keeps its token in the log.
 */
export function redactUrl(url: string): string {
  const end = url.search(/[?#]/);
  const path = end < 0 ? url : url.slice(0, end);
  const readable = readablePath(path);
  const prefix = SECRET_SEGMENT_AFTER.find((p) => readable.toLowerCase().startsWith(p));
  if (prefix === undefined) return url;
  return prefix + '[redacted]' + readable.slice(prefix.length).replace(/^[^/]*/, '') + url.slice(path.length);
}

function readablePath(path: string): string {
  // Byte by byte, so a malformed or non-UTF-8 escape (which the router refuses, and which is logged) decodes too.
  const decoded = path.replace(/%([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return decoded.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, '').replace(/\/{2,}/g, '/');
}
