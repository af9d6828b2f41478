import { isIP } from 'node:net';
import { isBlockedAddress } from '../common/net/address-policy';

/** Names that only ever mean a machine on the reader's own network (RFC 6761, RFC 6762, RFC 8375, common practice). */
const PRIVATE_SUFFIXES = ['.localhost', '.local', '.internal', '.intranet', '.lan', '.home.arpa', '.localdomain'];

/**
 * Whether a URL found in a message may become a short link on our domain: an http(s) URL without
 * credentials whose host is a public address or a name that can be public. Anything else is left as
 * written, so our domain never fronts a redirect to loopback, a private network or a `user:password@`
 * URL. Names are judged by their form, not resolved: a send must not wait on DNS per URL, and a name
 * can resolve differently when the link is followed anyway.
 */
export function isShortenable(raw: string): boolean {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return false;
  }
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.username || url.password) return false;
  const host = url.hostname
    .replace(/^\[|\]$/g, '')
    .toLowerCase()
    .replace(/\.$/, '');
  if (isIP(host)) return !isBlockedAddress(host);
  if (!host.includes('.') || host === 'localhost') return false;
  return !PRIVATE_SUFFIXES.some((suffix) => host.endsWith(suffix));
}
