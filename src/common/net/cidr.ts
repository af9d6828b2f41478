import { isIP } from 'node:net';

/**
 * Client-address allow-lists (API keys): IPv4 and IPv6 addresses and CIDR blocks, parsed and matched
 * in plain TypeScript (BigInt arithmetic; no native module). An IPv4-mapped IPv6 address
 * (`::ffff:203.0.113.7`, as a dual-stack socket reports IPv4 peers) is matched as the IPv4 address.
 */
export interface CidrBlock {
  version: 4 | 6;
  /** The network address with the host bits cleared. */
  network: bigint;
  prefix: number;
}

interface ParsedAddress {
  version: 4 | 6;
  value: bigint;
}

const MAPPED_V4 = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i;

export function parseAddress(text: string): ParsedAddress | null {
  const mapped = MAPPED_V4.exec(text);
  if (mapped) return parseAddress(mapped[1]);
  // node:net's isIP is the address grammar (pure JavaScript in Node, no native add-on): it refuses
  // leading zeros, out-of-range octets and malformed IPv6; zone ids (`%eth0`) are refused below.
  const version = isIP(text);
  if (version === 4) return { version: 4, value: text.split('.').reduce((acc, octet) => (acc << 8n) | BigInt(Number(octet)), 0n) };
  if (version === 6 && !text.includes('%')) return { version: 6, value: ipv6Value(text) };
  return null;
}

function ipv6Value(text: string): bigint {
  // An embedded IPv4 tail (`64:ff9b::192.0.2.1`) is two 16-bit groups.
  const body = text.replace(/(\d+)\.(\d+)\.(\d+)\.(\d+)$/, (_, a: string, b: string, c: string, d: string) =>
    [(Number(a) << 8) | Number(b), (Number(c) << 8) | Number(d)].map((g) => g.toString(16)).join(':'),
  );
  const [head, rest] = body.split('::');
  const left = head ? head.split(':') : [];
  const right = rest === undefined ? [] : rest ? rest.split(':') : [];
  const groups = rest === undefined ? left : [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  return groups.reduce((acc, g) => (acc << 16n) | BigInt(parseInt(g, 16)), 0n);
}

/** `203.0.113.0/24`, `2001:db8::/32`, or a lone address (a /32 or /128); null when not one of those. */
export function parseCidr(text: string): CidrBlock | null {
  const slash = text.indexOf('/');
  const address = parseAddress(slash < 0 ? text : text.slice(0, slash));
  if (!address || (slash >= 0 && MAPPED_V4.test(text.slice(0, slash)))) return null;
  const width = address.version === 4 ? 32 : 128;
  let prefix = width;
  if (slash >= 0) {
    const digits = text.slice(slash + 1);
    if (!/^\d{1,3}$/.test(digits) || Number(digits) > width) return null;
    prefix = Number(digits);
  }
  return { version: address.version, network: address.value & mask(width, prefix), prefix };
}

function mask(width: number, prefix: number): bigint {
  return prefix === 0 ? 0n : ((1n << BigInt(prefix)) - 1n) << BigInt(width - prefix);
}

/** The block as stored and shown: host bits cleared, IPv6 compressed (`2001:db8::/32`). */
export function formatCidr(block: CidrBlock): string {
  return `${block.version === 4 ? formatV4(block.network) : formatV6(block.network)}/${block.prefix}`;
}

function formatV4(value: bigint): string {
  return [24n, 16n, 8n, 0n].map((shift) => String((value >> shift) & 0xffn)).join('.');
}

function formatV6(value: bigint): string {
  const groups = [...Array(8).keys()].map((i) => Number((value >> BigInt(112 - 16 * i)) & 0xffffn));
  // RFC 5952: the longest run of two or more zero groups (the first of equals) becomes `::`.
  let best = { start: -1, length: 0 };
  for (let i = 0; i < 8;) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > best.length) best = { start: i, length: j - i };
    i = j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (best.length < 2) return hex.join(':');
  return `${hex.slice(0, best.start).join(':')}::${hex.slice(best.start + best.length).join(':')}`;
}

/** Whether the address lies in the block (an address of the other IP version never does). */
export function cidrContains(block: CidrBlock, address: string): boolean {
  const parsed = parseAddress(address);
  if (!parsed || parsed.version !== block.version) return false;
  return (parsed.value & mask(block.version === 4 ? 32 : 128, block.prefix)) === block.network;
}

/** Whether the address lies in any of the stored blocks (each in `formatCidr` form). */
export function addressAllowed(blocks: readonly string[], address: string): boolean {
  return blocks.some((text) => {
    const block = parseCidr(text);
    return block !== null && cidrContains(block, address);
  });
}
