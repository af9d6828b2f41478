import { randomFillSync } from 'node:crypto';

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));
/** Random bytes drawn 4 KiB at a time: one system call per 256 ids, not one per id. */
const pool = Buffer.alloc(4096);
let offset = pool.length;

/**
 * A version 7 UUID (RFC 9562): the Unix time in milliseconds in its first 48 bits, then 74 random bits
 * (version and variant in the rest). Ids made close together sort close together, so a table keyed by
 * them takes new rows at the end of its primary-key index instead of on a random page of it (fewer pages
 * touched and written per insert). It says when it was made, to the millisecond; a message's id is shown
 * with its creation time anyway.
 */
export function uuid7(now: number = Date.now()): string {
  if (offset + 10 > pool.length) {
    randomFillSync(pool);
    offset = 0;
  }
  const r = pool;
  const o = offset;
  offset += 10;
  const high = Math.floor(now / 0x1000000);
  const low = now % 0x1000000;
  return (
    HEX[(high >>> 16) & 0xff] +
    HEX[(high >>> 8) & 0xff] +
    HEX[high & 0xff] +
    HEX[(low >>> 16) & 0xff] +
    '-' +
    HEX[(low >>> 8) & 0xff] +
    HEX[low & 0xff] +
    '-' +
    HEX[0x70 | (r[o] & 0x0f)] +
    HEX[r[o + 1]] +
    '-' +
    HEX[0x80 | (r[o + 2] & 0x3f)] +
    HEX[r[o + 3]] +
    '-' +
    HEX[r[o + 4]] +
    HEX[r[o + 5]] +
    HEX[r[o + 6]] +
    HEX[r[o + 7]] +
    HEX[r[o + 8]] +
    HEX[r[o + 9]]
  );
}
