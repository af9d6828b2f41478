import { networkInterfaces } from 'node:os';
import { BlockList, isIPv4, isIPv6 } from 'node:net';

/**
 * Which IP addresses are public: what a webhook may reach (unless the operator allows private networks)
 * and what a short link may point at. An IPv6 address is refused when it is in a refused IPv6 range, or when any IPv4 address it embeds is refused:
 * IPv4-mapped (::ffff:a.b.c.d), IPv4-compatible (::a.b.c.d), IPv4-translated (::ffff:0:a.b.c.d),
 * NAT64 (64:ff9b::/96), 6to4 (2002::/16) and Teredo (2001::/32, server and obfuscated client). The
 * machine's own interface addresses are refused whatever their range.
 */
const BLOCKED_V4 = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local (cloud metadata)
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation (TEST-NET-1)
  ['192.88.99.0', 24], // 6to4 relay anycast
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation (TEST-NET-2)
  ['203.0.113.0', 24], // documentation (TEST-NET-3)
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const)
  BLOCKED_V4.addSubnet(net, prefix, 'ipv4');

const BLOCKED_V6 = new BlockList();
for (const [net, prefix] of [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['64:ff9b:1::', 48], // local-use NAT64: the embedded IPv4 may sit anywhere
  ['100::', 64], // discard-only
  ['2001:2::', 48], // benchmarking
  ['2001:10::', 28], // ORCHID
  ['2001:20::', 28], // ORCHIDv2
  ['2001:db8::', 32], // documentation
  ['3fff::', 20], // documentation (RFC 9637)
  ['5f00::', 16], // SRv6 SIDs
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
] as const)
  BLOCKED_V6.addSubnet(net, prefix, 'ipv6');

/** The 16 octets of an IPv6 address (with or without an embedded dotted quad), or null. */
export function ipv6Octets(address: string): Uint8Array | null {
  const text = address.replace(/^\[|\]$/g, '').split('%')[0];
  if (!isIPv6(text)) return null;
  let groups: string[];
  let tail: number[] = [];
  const dotted = /^(.*:)(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  let body = text;
  if (dotted) {
    tail = dotted[2].split('.').map(Number);
    body = `${dotted[1]}0:0`;
  }
  const [head, rest] = body.split('::');
  if (rest === undefined) {
    groups = head.split(':');
  } else {
    const left = head ? head.split(':') : [];
    const right = rest ? rest.split(':') : [];
    groups = [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  }
  const octets = new Uint8Array(16);
  groups.forEach((g, i) => {
    const n = parseInt(g, 16);
    octets[i * 2] = n >> 8;
    octets[i * 2 + 1] = n & 0xff;
  });
  if (dotted) octets.set(tail, 12);
  return octets;
}

const v4 = (o: ArrayLike<number>, at: number, mask = 0) => [0, 1, 2, 3].map((i) => (o[at + i] ^ mask) & 0xff).join('.');
const zero = (o: Uint8Array, from: number, to: number) => o.subarray(from, to).every((b) => b === 0);

/** Every IPv4 address an IPv6 address carries by a standard embedding. */
export function embeddedIpv4(octets: Uint8Array): string[] {
  const found: string[] = [];
  const word = (i: number) => (octets[i] << 8) | octets[i + 1];
  // ::a.b.c.d (compatible), ::ffff:a.b.c.d (mapped), ::ffff:0:a.b.c.d (translated)
  if (zero(octets, 0, 8) && ((word(8) === 0 && word(10) === 0) || (word(8) === 0 && word(10) === 0xffff) || (word(8) === 0xffff && word(10) === 0))) {
    found.push(v4(octets, 12));
  }
  if (word(0) === 0x64 && word(2) === 0xff9b && zero(octets, 4, 12)) found.push(v4(octets, 12)); // NAT64
  if (word(0) === 0x2002) found.push(v4(octets, 2)); // 6to4
  if (word(0) === 0x2001 && word(2) === 0) found.push(v4(octets, 4), v4(octets, 12, 0xff)); // Teredo server, client
  return found;
}

const canonicalV6 = (octets: Uint8Array) => Buffer.from(octets).toString('hex');

let ownCache: { at: number; keys: Set<string> } | null = null;
const OWN_CACHE_MS = 10_000;

/** This machine's interface addresses, as IPv4 text and IPv6 hex octets (refreshed every 10 s). */
export function ownAddresses(now = Date.now()): ReadonlySet<string> {
  if (ownCache && now - ownCache.at < OWN_CACHE_MS) return ownCache.keys;
  const keys = new Set<string>();
  for (const list of Object.values(networkInterfaces())) {
    for (const info of list ?? []) {
      if (info.family === 'IPv4') keys.add(info.address);
      else {
        const octets = ipv6Octets(info.address);
        if (octets) keys.add(canonicalV6(octets));
      }
    }
  }
  ownCache = { at: now, keys };
  return keys;
}

function blockedV4(address: string, own: ReadonlySet<string>): boolean {
  return BLOCKED_V4.check(address, 'ipv4') || own.has(address);
}

/** True when a webhook must not reach this address; anything that is not an IP address is refused. */
export function isBlockedAddress(address: string, own: ReadonlySet<string> = ownAddresses()): boolean {
  if (isIPv4(address)) return blockedV4(address, own);
  const octets = ipv6Octets(address);
  if (!octets) return true;
  const text = address.replace(/^\[|\]$/g, '').split('%')[0];
  if (BLOCKED_V6.check(text, 'ipv6') || own.has(canonicalV6(octets))) return true;
  return embeddedIpv4(octets).some((embedded) => blockedV4(embedded, own));
}
