import { Pool } from 'pg';
import { loadConfig } from '../../src/config/app-config';
import { prepareDatabase } from '../../src/database/prepare-database';
import { MIGRATIONS } from '../../src/migrations';
import { call, complianceVerify, database, HttpAnswer, international, ledgerVerify, liveAccount, mobiles, statusCounts } from '../support/campaign';
import { AutoFailoverFormation, FormationNode } from '../support/pg-auto-failover';
import { exitedServices, RunningService, SmscProcess, startApi, startSmscProcess, startWorker, stopStartedProcesses } from '../support/processes';
import { until } from '../support/wait';

const BINDS = 2;
const WINDOW = 10;
const WORKERS = 2;
/**
 * Longer than a failover by more than a third (a worker keeps the answers it had, and stops handing work
 * over, until three quarters of this has passed since its last confirmed lease renewal), so a worker that
 * lives through the failover resubmits nothing.
 */
const CLAIM_TIMEOUT_MS = 60_000;
const WORKER_ENV = { SMPP_BINDS: String(BINDS), SMPP_WINDOW: String(WINDOW), DISPATCH_BATCH_SIZE: '500', SWEEP_INTERVAL_MS: '200', CLAIM_TIMEOUT_MS: String(CLAIM_TIMEOUT_MS) };
const UNAVAILABLE = { error: 'Service temporarily unavailable, please retry' };

jest.setTimeout(600_000);

/**
 * The PostgreSQL primary fails mid-campaign and pg_auto_failover promotes its standby. The service is given
 * both nodes in one URL (h1,h2/sms?target_session_attrs=read-write) and finds the new primary by itself:
 * requests in the gap answer 503 in the envelope, the API answers 200 again once the standby is promoted,
 * the workers pick up where they were, nothing is lost or sent twice, and `cli ledger:verify` is clean.
 * Two ways to fail: killed (its connections are reset at once), and hung (stopped: no reset, no answer,
 * the service's connections to it wait until it ends them itself).
 */
const FAULTS = {
  killed: (formation: AutoFailoverFormation, node: FormationNode) => formation.kill(node),
  hung: (formation: AutoFailoverFormation, node: FormationNode) => formation.hang(node),
};

describe.each(Object.keys(FAULTS) as Array<keyof typeof FAULTS>)('PostgreSQL failover (pg_auto_failover, primary %s)', (fault) => {
  let formation: AutoFailoverFormation | undefined;
  let smsc: SmscProcess;
  let api: RunningService;
  let workers: RunningService[] = [];
  let db: Pool;
  const abandoned: Pool[] = [];
  let fileDatabaseUrl: string | undefined;

  beforeAll(async () => {
    const started = Date.now();
    formation = await AutoFailoverFormation.start('sms');
    process.stdout.write(`pg_auto_failover formation (monitor, primary, secondary) up in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
    // Every process of the test (service, CLI, this file's queries) gets the formation's URL.
    fileDatabaseUrl = process.env.DATABASE_URL;
    process.env.DATABASE_URL = formation.url('sms');
    await prepareDatabase(loadConfig(process.env), MIGRATIONS);
    db = database();
    smsc = await startSmscProcess({ receiptDelayMs: 200 });
    // A pool minimum as in production (test runs default to 0), so reopening it after the failover runs here too.
    const env = { DEPENDENCY_TIMEOUT_MS: '1000', DATABASE_POOL_MIN: '4' };
    [api, ...workers] = await Promise.all([
      startApi('api', env),
      ...Array.from({ length: WORKERS }, (_, i) => startWorker(`worker-${i + 1}`, smsc.port, { ...WORKER_ENV, ...env })),
    ]);
  });

  afterAll(async () => {
    // SIGTERM, then SIGKILL after 10 s: a service whose work waits on a hung database would not exit by itself.
    await stopStartedProcesses();
    await db?.end();
    await formation?.stop();
    await Promise.all(abandoned.map((pool) => pool.end()));
    if (fileDatabaseUrl) process.env.DATABASE_URL = fileDatabaseUrl;
  });

  /** Rows and bytes (heap, indexes and TOAST) of every table: the sizing figures docs/retention.md quotes. */
  async function tableSizes(): Promise<Map<string, { rows: number; bytes: number }>> {
    await db.query('ANALYZE');
    const { rows } = await db.query<{ name: string; bytes: string }>(
      `SELECT c.relname AS name, pg_total_relation_size(c.oid)::text AS bytes FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND NOT c.relispartition`,
    );
    const sizes = new Map<string, { rows: number; bytes: number }>();
    for (const r of rows) {
      // Exact counts (a partitioned parent counts its partitions; its size is theirs summed).
      const count = (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM "${r.name}"`)).rows[0].n;
      const bytes = Number(
        (await db.query<{ b: string }>(`SELECT coalesce(sum(pg_total_relation_size(relid)), 0)::text AS b FROM pg_partition_tree($1::regclass)`, [r.name])).rows[0].b,
      );
      sizes.set(r.name, { rows: count, bytes: Math.max(bytes, Number(r.bytes)) });
    }
    return sizes;
  }

  function printGrowth(before: Map<string, { rows: number; bytes: number }>, after: Map<string, { rows: number; bytes: number }>, messages: number): void {
    let total = 0;
    const lines: string[] = [];
    for (const [name, now] of after) {
      const was = before.get(name) ?? { rows: 0, bytes: 0 };
      if (now.rows === was.rows) continue;
      total += now.bytes - was.bytes;
      lines.push(`  ${name}: +${now.rows - was.rows} rows, +${now.bytes - was.bytes} bytes`);
    }
    process.stdout.write(
      `sizing: ${messages} one-part messages sent and delivered grew the database by ${total} bytes (${Math.round(total / messages)} per message)\n${lines.join('\n')}\n`,
    );
  }

  /** The dispatcher leases and the batches not yet recorded, as PostgreSQL has them now. */
  async function stallSnapshot(): Promise<string> {
    const leases = await db.query(`SELECT dispatcher_id, round(extract(epoch FROM now() - heartbeat_at)) AS age_s, active_batches FROM dispatcher_leases`);
    const batches = await db.query(`SELECT batch_id, send_id, round(extract(epoch FROM now() - claimed_at)) AS age_s, released_at FROM dispatch_batches`);
    const answers = await Promise.all(workers.flatMap((w) => ['/health/live', '/health'].map((path) => probeWorker(w, path))));
    return [...leases.rows.map((r) => `  lease ${JSON.stringify(r)}`), ...batches.rows.map((r) => `  batch ${JSON.stringify(r)}`), ...answers.map((a) => `  ${a}`)].join('\n');
  }

  it(`the primary ${fault} mid-campaign: 503 in the gap, 200 again after promotion, nothing lost or repeated, ledger clean`, async () => {
    const sizesBefore = await tableSizes();
    const acct = await liveAccount(10_000);
    const numbers = mobiles('31', 6000);
    const answers = await Promise.all(
      [numbers.slice(0, 3000), numbers.slice(3000)].map((half) =>
        call(api.url, 'POST', '/v1/messages', acct.auth, { messages: half.map((to) => ({ to, message: 'Failover', sender: 'Brand' })) }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    await until(async () => (await smsc.control.destinations('61431')).size >= 1500, '1500 submitted', 60_000, 100);

    const primary = (await formation!.primary())!;
    const faultAt = Date.now();
    FAULTS[fault](formation!, primary);
    // This file's own connections to a hung node would wait on it for good: a new pool, and the old one ended
    // once the formation is (stopping the node closes their sockets).
    abandoned.push(db);
    db = database();

    // The API through the gap: every answer is 200 or the 503 envelope, never a 500; 200 again once the
    // standby is promoted (three in a row, so one lucky answer from a pooled connection does not count).
    const seen: Array<{ at: number; answer: HttpAnswer }> = [];
    let backAt = 0;
    await until(
      async () => {
        const answer = await call(api.url, 'GET', '/v1/account', acct.auth);
        seen.push({ at: Date.now() - faultAt, answer });
        const last = seen.slice(-3);
        if (seen.some((s) => s.answer.status === 503) && last.length === 3 && last.every((s) => s.answer.status === 200)) backAt = last[0].at;
        return backAt > 0;
      },
      'the API to answer 200 again after the failover',
      120_000,
      250,
    );
    const promoted = await formation!.primary();
    const counts = seen.reduce<Record<number, number>>((acc, s) => ({ ...acc, [s.answer.status]: (acc[s.answer.status] ?? 0) + 1 }), {});
    process.stdout.write(
      `failover (${fault}): API answered 200 again ${(backAt / 1000).toFixed(1)} s after the primary (${primary.name}) was ${fault}; answers meanwhile ${JSON.stringify(counts)}; new primary ${promoted?.name}\n`,
    );
    expect(seen.filter((s) => s.answer.status !== 200 && !(s.answer.status === 503 && JSON.stringify(s.answer.body) === JSON.stringify(UNAVAILABLE)))).toEqual([]);
    expect(counts[503]).toBeGreaterThan(0);
    expect(promoted?.name).not.toBe(primary.name);

    // Nothing lost: every message delivered, every destination at the SMSC. What holds delivery up 25 s
    // after the API is back (a worker's leases and batches) is kept, to explain repeats if there are any.
    let stall = 'delivered within 25 s of the API answering again';
    const stallTimer = setTimeout(
      () =>
        void stallSnapshot().then(
          (s) => (stall = s),
          (err: Error) => (stall = `no snapshot: ${err.message}`),
        ),
      25_000,
    );
    await until(
      async () => ((await statusCounts(db, acct.accountId).catch(() => ({}) as Record<string, number>)).delivered ?? 0) === numbers.length,
      'all delivered',
      240_000,
      500,
    );
    clearTimeout(stallTimer);
    const deliveredAt = Date.now() - faultAt;
    const submitted = await smsc.control.destinations('61431');
    expect(numbers.filter((n) => !submitted.has(international(n)))).toEqual([]);
    // Repeats: the workers keep the carrier's answers through the gap (their leases outlive it), so none
    // are expected; what a killed primary can still cost is what was on the wire, unanswered, at the kill.
    const allowed = 0;
    const repeats = numbers.filter((n) => (submitted.get(international(n)) ?? 0) > 1).length;
    process.stdout.write(
      `failover (${fault}): ${numbers.length} delivered (the last ${(deliveredAt / 1000).toFixed(1)} s after the fault), ${repeats} submitted twice (allowed ${allowed})\n`,
    );
    for (const worker of workers) process.stdout.write(`  ${worker.process.name} warned: ${JSON.stringify(warnings(worker))}\n`);
    // A service that ended on the fault (an error nobody listened to) explains repeats: its work was taken back.
    const ended = exitedServices([api, ...workers]);
    if (repeats > allowed || ended.length > 0) {
      process.stdout.write(`failover: delivery 25 s after the API was back:\n${stall}\n${[api, ...workers].map(serviceState).join('\n')}\n`);
    }
    expect(ended).toEqual([]);
    expect(repeats).toBeLessThanOrEqual(allowed);

    printGrowth(sizesBefore, await tableSizes(), numbers.length);

    for (const scope of [acct.accountId, undefined]) {
      const ledger = await ledgerVerify(scope);
      expect([scope, ledger.code, ledger.report?.violations]).toEqual([scope, 0, []]);
      const compliance = await complianceVerify(scope);
      expect([scope, compliance.code, compliance.report?.violations]).toEqual([scope, 0, []]);
    }
  });
});

/**
 * Whether a service still runs, and its last lines of stdout and stderr (a crash's stack is among them): a
 * worker silent since the kill explains its batch taken back.
 */
function serviceState(service: RunningService): string {
  const { name, child, tail } = service.process;
  const state = service.process.running ? 'running' : `exited (${child.exitCode ?? child.signalCode})`;
  return [`  ${name}: ${state}; its last lines:`, ...tail.map((l) => `    ${l.slice(0, 300)}`)].join('\n');
}

/**
 * What a worker's own HTTP listener answers within 3 s: /health/live tells an event loop that still turns
 * (work waiting on something) from a process that is frozen; /health also asks its PostgreSQL pool.
 */
async function probeWorker(service: RunningService, path: string): Promise<string> {
  const started = Date.now();
  try {
    const res = await fetch(`${service.url}${path}`, { signal: AbortSignal.timeout(3000) });
    return `${service.process.name} GET ${path}: ${res.status} in ${Date.now() - started} ms ${(await res.text()).slice(0, 400)}`;
  } catch (err) {
    return `${service.process.name} GET ${path}: no answer after ${Date.now() - started} ms (${(err as Error).message})`;
  }
}

function warnings(service: RunningService): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const line of service.process.warnings) {
    const key = `${String(line.msg)}${line.err ? `: ${String(line.err).slice(0, 80)}` : ''}`;
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}
