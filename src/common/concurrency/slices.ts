import { nextBulkTurn } from './bulk-turns';

/** Entries handled between two turns of the event loop in mapInSlices. */
export const SLICE = 500;

/**
 * Maps `items` in slices, letting the event loop turn between slices: a 10000-entry request then never
 * holds the process for its whole length, and other requests (a health probe, a small send) are answered
 * in between. The result is the same as `items.map(fn)`.
 */
export async function mapInSlices<T, R>(items: readonly T[], fn: (item: T, index: number) => R, size = SLICE): Promise<R[]> {
  const out = new Array<R>(items.length);
  for (let start = 0; start < items.length; start += size) {
    if (start > 0) await nextBulkTurn();
    const end = Math.min(items.length, start + size);
    for (let i = start; i < end; i++) out[i] = fn(items[i], i);
  }
  return out;
}
