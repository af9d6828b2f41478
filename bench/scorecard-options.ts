import { Part, PARTS } from './scorecard-aims';

export const SCORECARD_USAGE = `npm run bench:scorecard -- [--rounds N] [--baseline DIR] [--only ${PARTS.join(',')}] [--help]
  --rounds N      rounds of every benchmark (default 3)
  --baseline DIR  another checkout, installed and built there, run beside this one in every round
  --only PARTS    some of ${PARTS.join(', ')} (comma-separated; default all)
  --help          this text`;

/** A mistake in the arguments: printed as its message alone (no stack), with the usage. */
export class UsageError extends Error {}

export type ScorecardOptions = { help: true } | { help: false; rounds: number; parts: Part[]; baseline?: string };

/**
 * The scorecard's arguments. A run takes ten minutes or more, so anything it does not know (a misspelt
 * flag, a stray word) is refused before the first benchmark starts rather than silently ignored.
 */
export function scorecardOptions(args: readonly string[]): ScorecardOptions {
  if (args.includes('--help') || args.includes('-h')) return { help: true };
  let rounds = 3;
  let parts: Part[] = [...PARTS];
  let baseline: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const flag = args[i];
    const value = args[i + 1];
    if (flag !== '--rounds' && flag !== '--baseline' && flag !== '--only') throw new UsageError(`unknown argument '${flag}'\n${SCORECARD_USAGE}`);
    if (value === undefined || value.startsWith('--')) throw new UsageError(`${flag} takes a value\n${SCORECARD_USAGE}`);
    i++;
    if (flag === '--rounds') {
      rounds = Number(value);
      if (!/^\d+$/.test(value) || rounds < 1) throw new UsageError('--rounds takes a whole number of rounds, 1 or more');
    } else if (flag === '--baseline') {
      baseline = value;
    } else {
      // A stray comma ('campaign,') names nothing more; a list that names nothing at all is refused.
      const asked = value.split(',').filter((p) => p !== '');
      if (asked.length === 0) throw new UsageError(`--only takes some of ${PARTS.join(',')}`);
      const unknown = asked.filter((p) => !PARTS.includes(p as Part));
      if (unknown.length) throw new UsageError(`--only takes some of ${PARTS.join(',')}; not '${unknown.join(',')}'`);
      parts = PARTS.filter((p) => asked.includes(p));
    }
  }
  return { help: false, rounds, parts, baseline };
}
