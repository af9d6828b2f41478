import type { BenchResults, Part } from './scorecard-aims';

/** One benchmark run of a round: which benchmark, of which checkout (0 is this one, 1 the baseline). */
export interface Step {
  bench: keyof BenchResults;
  checkout: number;
}

/**
 * The runs of one round (1-based), in order: for each part, each checkout's benchmark; the campaign's
 * Kannel run comes first and once, from this checkout, and divides every checkout's campaign of the
 * round. Which checkout goes first alternates from round to round (odd rounds: this one), so neither
 * always runs on a machine the other just warmed.
 */
export function roundSchedule(round: number, checkouts: number, parts: readonly Part[]): Step[] {
  const order = Array.from({ length: checkouts }, (_, i) => i);
  if (round % 2 === 0) order.reverse();
  const steps: Step[] = [];
  for (const part of parts) {
    const bench = part === 'campaign' ? 'dispatch' : part;
    if (part === 'campaign') steps.push({ bench: 'kannel', checkout: 0 });
    for (const checkout of order) steps.push({ bench, checkout });
  }
  return steps;
}
