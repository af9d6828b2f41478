import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadAverages } from './dispatch-measures';
import { BenchResults, figuresFromOutput, Round, roundFigures, scorecardLines } from './scorecard-aims';
import { SCORECARD_USAGE, scorecardOptions, UsageError } from './scorecard-options';
import { roundSchedule } from './scorecard-schedule';

/**
 * npm run bench:scorecard -- [--rounds 3] [--baseline DIR] [--only campaign,webhooks,links,send] [--help]
 * Every hot path's aim in one command: runs the benchmarks that time a path beside its floor
 * (bench:kannel -- --no-dlr then bench:dispatch, bench:webhooks, bench:links, bench:send -- --runs 9),
 * one at a time, each in its own process, for several rounds, and prints each round's ratios against the
 * aims (scorecard-aims.ts) and how many rounds met each.
 * --baseline DIR: another checkout of this project, installed and built there (npm ci && npm run build):
 * in every round each of its benchmarks runs beside this checkout's, the two in turn (which goes first
 * alternates from round to round; both campaigns are divided by the same Kannel run), so a change and the
 * code before it are compared in one sitting.
 * Each run's whole output is kept in a folder named at the end.
 */
/** One benchmark run: its script under dist/bench, node's flags and its own arguments. */
const RUNS: Record<keyof BenchResults, { script: string; node?: string[]; args?: string[] }> = {
  kannel: { script: 'kannel.js', args: ['--no-dlr'] },
  dispatch: { script: 'dispatch.js' },
  webhooks: { script: 'webhooks.js' },
  links: { script: 'links.js' },
  send: { script: 'send.js', node: ['--expose-gc'], args: ['--runs', '9'] },
};
const RUN_TIMEOUT_MS = 15 * 60_000;

interface Checkout {
  name: string;
  root: string;
}

let logDir = '';
let runCount = 0;
/** Stops the benchmark running now with its whole process group (none between runs). */
let stopRunning: ((signal: NodeJS.Signals) => void) | undefined;

/** Runs one benchmark of `checkout` to its end; its figures, or undefined when it failed. */
async function runBench(checkout: Checkout, bench: keyof BenchResults, round: number): Promise<Record<string, number> | undefined> {
  const { script, node = [], args = [] } = RUNS[bench];
  const tag = `${String(++runCount).padStart(2, '0')}-round${round}-${bench}-${checkout.name.replace(/\s+/g, '-')}`;
  const resultFile = path.join(logDir, `${tag}.json`);
  const logFile = path.join(logDir, `${tag}.log`);
  const out = openSync(logFile, 'w');
  const started = Date.now();
  let timedOut = false;
  const code = await new Promise<number | null>((resolve) => {
    // Its own process group: a benchmark that runs past the limit is stopped with every process it started
    // (receiver, simulators, Kannel, workers), which would otherwise stay and weigh on the runs after it.
    const child = spawn(process.execPath, [...node, path.join(checkout.root, 'dist', 'bench', script), ...args], {
      cwd: checkout.root,
      env: { ...process.env, BENCH_RESULT_FILE: resultFile },
      stdio: ['ignore', out, out],
      detached: true,
    });
    const stopGroup = (signal: NodeJS.Signals) => {
      try {
        process.kill(-child.pid!, signal);
      } catch {
        // The group is gone already.
      }
    };
    stopRunning = stopGroup;
    const timer = setTimeout(() => {
      timedOut = true;
      stopGroup('SIGTERM');
      setTimeout(() => stopGroup('SIGKILL'), 10_000).unref();
    }, RUN_TIMEOUT_MS);
    child.on('error', () => {
      clearTimeout(timer);
      stopRunning = undefined;
      resolve(null);
    });
    child.on('exit', (exitCode) => {
      clearTimeout(timer);
      stopRunning = undefined;
      resolve(exitCode);
    });
  });
  closeSync(out);
  const seconds = Math.round((Date.now() - started) / 1000);
  let figures: Record<string, number> | undefined;
  try {
    figures = JSON.parse(readFileSync(resultFile, 'utf8')) as Record<string, number>;
  } catch {
    // No result file: a checkout from before the benchmarks wrote one, or a run that failed early.
    figures = code === 0 ? figuresFromOutput(bench, readFileSync(logFile, 'utf8')) : undefined;
  }
  if (code !== 0 || !figures) {
    const why = timedOut ? `stopped after ${RUN_TIMEOUT_MS / 60_000} min` : `exit ${code}`;
    console.log(`  round ${round} ${bench} (${checkout.name}): failed (${why}) after ${seconds} s; see ${logFile}`);
    return undefined;
  }
  const shown = Object.entries(figures)
    .map(([k, v]) => `${k} ${Number.isInteger(v) ? v : v.toFixed(2)}`)
    .join(', ');
  console.log(`  round ${round} ${bench} (${checkout.name}): ${shown} (${seconds} s; load average ${loadAverages()})`);
  return figures;
}

async function main() {
  const options = scorecardOptions(process.argv.slice(2));
  if (options.help) return console.log(SCORECARD_USAGE);
  const { rounds, parts } = options;
  const self: Checkout = { name: 'this checkout', root: path.resolve(__dirname, '..', '..') };
  const checkouts = [self];
  if (options.baseline !== undefined) {
    const root = path.resolve(options.baseline);
    if (!existsSync(path.join(root, 'dist', 'bench', 'dispatch.js'))) throw new Error(`--baseline ${root}: no dist/bench there (npm ci && npm run build in it first)`);
    checkouts.push({ name: 'baseline', root });
  }
  logDir = mkdtempSync(path.join(os.tmpdir(), 'scorecard-'));
  console.log(`${rounds} rounds of ${parts.join(', ')}${checkouts.length > 1 ? `, each beside ${checkouts[1].root}` : ''}; load average ${loadAverages()}`);

  const results: BenchResults[][] = checkouts.map(() => []);
  for (let round = 1; round <= rounds; round++) {
    for (const perCheckout of results) perCheckout[round - 1] = {};
    for (const step of roundSchedule(round, checkouts.length, parts)) {
      const figures = await runBench(checkouts[step.checkout], step.bench, round);
      // Kannel's run is the reference of every checkout's campaign in this round.
      if (step.bench === 'kannel') for (const perCheckout of results) perCheckout[round - 1].kannel = figures;
      else results[step.checkout][round - 1][step.bench] = figures;
    }
  }

  const figures: Round[][] = results.map((perRound) => perRound.map(roundFigures));
  console.log('');
  for (const line of scorecardLines(figures[0], figures[1], parts).lines) console.log(line);
  console.log(`each run's output: ${logDir}`);
}

// A benchmark runs in its own process group, out of reach of a Ctrl-C at the terminal: stopped with us.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    stopRunning?.('SIGTERM');
    process.exit(130);
  });
}

main().catch((err) => {
  console.error(err instanceof UsageError ? err.message : err);
  process.exit(err instanceof UsageError ? 2 : 1);
});
