import { readFileSync, writeFileSync } from 'node:fs';

/**
 * A benchmark's headline figures, for bench:scorecard: with BENCH_RESULT_FILE set, each call merges its
 * figures into that JSON file (a benchmark reports as it goes); without it, nothing is written.
 */
export function reportResult(figures: Record<string, number>): void {
  const file = process.env.BENCH_RESULT_FILE;
  if (!file) return;
  let earlier: Record<string, number> = {};
  try {
    earlier = JSON.parse(readFileSync(file, 'utf8')) as Record<string, number>;
  } catch {
    // The first figures of this run.
  }
  writeFileSync(file, JSON.stringify({ ...earlier, ...figures }));
}
