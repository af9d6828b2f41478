import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { isBlockedAddress } from '../common/net/address-policy';

/** Longest webhook URL accepted: what browsers and proxies reliably carry, and far more than a receiver needs. */
export const WEBHOOK_URL_MAX_LENGTH = 2048;

export type UrlVerdict = { ok: true; url: URL } | { ok: false; reason: 'invalid' | 'not_https' | 'not_allowed' | 'too_long' | 'whitespace' | 'unresolved' };

/** Control characters (C0, DEL, C1) and every Unicode space: the URL parser drops or encodes them silently. */
const CONTROL_OR_SPACE = /[\p{Cc}\p{Z}\s\u200b-\u200f\ufeff]/u;

/**
 * Length, syntax and scheme only (no DNS): the part of the policy that never changes for a URL. A URL holding
 * whitespace or control characters is refused rather than cleaned, so the URL stored (the parser's `href`) is
 * the one the account sent and the one called.
 */
export function checkUrlSyntax(raw: string, allowPrivate: boolean): UrlVerdict {
  if (raw.length > WEBHOOK_URL_MAX_LENGTH) return { ok: false, reason: 'too_long' };
  // Text that is not a URL at all (`not a url`) is simply invalid; a URL with whitespace in it says so.
  if (CONTROL_OR_SPACE.test(raw)) return { ok: false, reason: /^[a-z][a-z0-9+.-]*:\/\/\S/i.test(raw) ? 'whitespace' : 'invalid' };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: 'invalid' };
  }
  if (url.protocol !== 'https:' && !(allowPrivate && url.protocol === 'http:')) {
    return url.protocol === 'http:' ? { ok: false, reason: 'not_https' } : { ok: false, reason: 'invalid' };
  }
  if (!url.hostname || url.username || url.password) return { ok: false, reason: 'invalid' };
  if (url.href.length > WEBHOOK_URL_MAX_LENGTH) return { ok: false, reason: 'too_long' };
  return { ok: true, url };
}

/** The full policy: length and scheme, then every address the host resolves to (unless private addresses are allowed). */
export async function checkWebhookUrl(raw: string, allowPrivate: boolean): Promise<UrlVerdict> {
  const syntax = checkUrlSyntax(raw, allowPrivate);
  if (!syntax.ok || allowPrivate) return syntax;
  const host = syntax.url.hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  try {
    addresses = isIP(host) ? [host] : (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);
  } catch {
    // A well-formed URL whose name does not resolve (a typo, or DNS failing for now): said so, not "invalid".
    return { ok: false, reason: 'unresolved' };
  }
  if (addresses.length === 0 || addresses.some((a) => isBlockedAddress(a))) return { ok: false, reason: 'not_allowed' };
  return syntax;
}
