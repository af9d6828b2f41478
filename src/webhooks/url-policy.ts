import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/** Addresses a webhook may not reach unless the operator allows private networks. */
const BLOCKED = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  BLOCKED.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['64:ff9b::', 96],
] as const)
  BLOCKED.addSubnet(net, prefix, 'ipv6');

export function isBlockedAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return BLOCKED.check(address, 'ipv4');
  if (family === 6) {
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
    if (mapped) return BLOCKED.check(mapped[1], 'ipv4');
    return BLOCKED.check(address, 'ipv6');
  }
  return true;
}

export type UrlVerdict = { ok: true; url: URL } | { ok: false; reason: 'invalid' | 'not_https' | 'not_allowed' };

/** Syntax and scheme only (no DNS): the part of the policy that never changes for a URL. */
export function checkUrlSyntax(raw: string, allowPrivate: boolean): UrlVerdict {
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
  return { ok: true, url };
}

/** The full policy: scheme, then every address the host resolves to (unless private addresses are allowed). */
export async function checkWebhookUrl(raw: string, allowPrivate: boolean): Promise<UrlVerdict> {
  const syntax = checkUrlSyntax(raw, allowPrivate);
  if (!syntax.ok || allowPrivate) return syntax;
  const host = syntax.url.hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  try {
    addresses = isIP(host) ? [host] : (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);
  } catch {
    return { ok: false, reason: 'invalid' };
  }
  if (addresses.length === 0 || addresses.some(isBlockedAddress)) return { ok: false, reason: 'not_allowed' };
  return syntax;
}
