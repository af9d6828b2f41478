import { Pool } from 'pg';
import { complianceVerify, database, international, ledgerVerify, liveAccount, mobiles, sendRetrying, statusCounts } from '../support/campaign';
import { PrivateRedis } from '../support/private-redis';
import { RunningService, SmscProcess, startApi, startSmscProcess, startWorker } from '../support/processes';
import { until } from '../support/wait';

const WORKER_ENV = { SMPP_BINDS: '2', SMPP_WINDOW: '10', DISPATCH_BATCH_SIZE: '500', SWEEP_INTERVAL_MS: '200', CLAIM_TIMEOUT_MS: '10000' };

jest.setTimeout(300_000);

/**
 * Redis stopped for 3 s mid-campaign and started again, under real processes (one API, two workers, the
 * SMSC simulator) on a redis-server of this test's own (the machine's shared Redis is left alone).
 * PostgreSQL holds every fact; Redis only state that can be rebuilt, so the workers, alive throughout,
 * lose nothing and submit nothing twice, and say what went wrong about once a second per cause.
 */
describe('Chaos: Redis stopped and started', () => {
  let redis: PrivateRedis;
  let smsc: SmscProcess;
  let api: RunningService;
  let workers: RunningService[];
  let db: Pool;

  beforeAll(async () => {
    db = database();
    redis = new PrivateRedis();
    await redis.start();
    smsc = await startSmscProcess({ receiptDelayMs: 200 });
    const env = { REDIS_URL: redis.url, DEPENDENCY_TIMEOUT_MS: '1000' };
    [api, ...workers] = await Promise.all([
      startApi('api', env),
      startWorker('worker-1', smsc.port, { ...WORKER_ENV, ...env }),
      startWorker('worker-2', smsc.port, { ...WORKER_ENV, ...env }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([api, ...(workers ?? [])].filter(Boolean).map((s) => s.process.stop()));
    await smsc?.process.stop();
    await redis?.remove();
    await db?.end();
  });

  it('Redis stopped for 3 s mid-campaign: nothing lost, nothing repeated, each cause logged about once a second', async () => {
    const acct = await liveAccount(10_000);
    const numbers = mobiles('25', 6000);
    const halves = [numbers.slice(0, 3000), numbers.slice(3000)];
    const answers = await Promise.all(halves.map((half) => sendRetrying(api.url, acct.auth, { messages: half.map((to) => ({ to, message: 'Chaos', sender: 'Brand' })) })));
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    const warnedBefore = workers.map((w) => w.process.warnings.length);
    const unparsedBefore = workers.map((w) => w.process.unparsedCount);
    const watchedFrom = Date.now();
    await until(async () => (await smsc.control.destinations('61425')).size >= 1500, '1500 submitted', 60_000, 100);

    await redis.stop();
    const stoppedAt = Date.now();
    const submittedAtStop = (await smsc.control.destinations('61425')).size;
    await new Promise((r) => setTimeout(r, Math.max(0, 3000 - (Date.now() - stoppedAt))));
    await redis.start();
    process.stdout.write(`Redis stopped at ${submittedAtStop} of ${numbers.length} submitted, started again after ${Date.now() - stoppedAt} ms\n`);

    await until(async () => (await statusCounts(db, acct.accountId)).delivered === numbers.length, `all ${numbers.length} delivered`, 240_000, 500);
    const submitted = await smsc.control.destinations('61425');
    expect(numbers.filter((n) => !submitted.has(international(n)))).toEqual([]);
    const repeats = numbers.filter((n) => (submitted.get(international(n)) ?? 0) > 1).length;
    process.stdout.write(`Redis stopped 3 s: ${numbers.length} delivered, ${repeats} submitted twice (allowed 0)\n`);

    const linesPerCause = workers.map((w, i) => causes(w.process.warnings.slice(warnedBefore[i])));
    // About one line a second per cause with a count, not one per event or per sweep (the first of a cause
    // is written at once, so a second may hold two).
    const linesAllowed = 2 * Math.ceil((Date.now() - watchedFrom) / 1000);
    // Lines that are not the service's JSON log lines (a library writing to the console) count as one cause.
    const unparsed = workers.map((w, i) => w.process.unparsedCount - unparsedBefore[i]);
    workers.forEach((w, i) =>
      process.stdout.write(`  ${w.process.name} warned: ${JSON.stringify(linesPerCause[i])}, ${unparsed[i]} other lines (at most ${linesAllowed} a cause)\n`),
    );
    expect(repeats).toBe(0);
    for (const counts of linesPerCause) expect(Object.entries(counts).filter(([, n]) => n > linesAllowed)).toEqual([]);
    expect(unparsed.filter((n) => n > linesAllowed)).toEqual([]);

    for (const scope of [acct.accountId, undefined]) {
      const ledger = await ledgerVerify(scope);
      expect([scope, ledger.code, ledger.report.violations]).toEqual([scope, 0, []]);
      const compliance = await complianceVerify(scope);
      expect([scope, compliance.code, compliance.report.violations]).toEqual([scope, 0, []]);
    }
  });
});

/** Warning and error lines by message (and the start of the error), with how many of each. */
function causes(lines: Array<Record<string, unknown>>): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const line of lines) {
    const key = `${String(line.msg)}${line.err ? `: ${String(line.err).slice(0, 80)}` : ''}`;
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}
