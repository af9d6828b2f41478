import { Pool } from 'pg';
import { call, sendRetrying, complianceVerify, database, HttpAnswer, international, ledgerVerify, LiveAccount, liveAccount, mobiles, statusCounts } from '../support/campaign';
import { exitedServices, metricValue, RunningService, SmscProcess, startApi, startSmscProcess, startWorker } from '../support/processes';
import { TcpProxy } from '../support/tcp-proxy';
import { deleteRedisKeys } from '../support/test-env';
import { until } from '../support/wait';

const BINDS = 2;
const WINDOW = 10;
/**
 * Longer than the PostgreSQL cut by more than a third (a worker keeps its answers through an outage while
 * three quarters of this has not passed since its last confirmed lease renewal), short enough that a
 * killed worker's batches are taken back within the test.
 */
const CLAIM_TIMEOUT_MS = 10_000;
const WORKER_ENV = { SMPP_BINDS: String(BINDS), SMPP_WINDOW: String(WINDOW), DISPATCH_BATCH_SIZE: '500', SWEEP_INTERVAL_MS: '200', CLAIM_TIMEOUT_MS: String(CLAIM_TIMEOUT_MS) };

jest.setTimeout(300_000);

/**
 * Faults a datacenter has, injected into real processes (one API, two workers, the SMSC simulator) on
 * live (SMPP) accounts; after each, nothing is lost, repeats stay within what was on the wire, and
 * `cli ledger:verify` and `cli compliance:verify` find no violation.
 */
describe('Chaos, checked by the ledger', () => {
  let smsc: SmscProcess;
  let pgProxy: TcpProxy;
  let api: RunningService;
  let workers: RunningService[];
  let db: Pool;

  beforeAll(async () => {
    db = database();
    smsc = await startSmscProcess({ receiptDelayMs: 200 });
    // Every service process reaches PostgreSQL through a proxy the tests can cut.
    const direct = new URL(process.env.DATABASE_URL!);
    pgProxy = new TcpProxy(direct.hostname, Number(direct.port || 5432));
    const proxied = new URL(direct.toString());
    proxied.port = String(await pgProxy.start());
    const viaProxy = { DATABASE_URL: proxied.toString(), DEPENDENCY_TIMEOUT_MS: '1000' };
    [api, ...workers] = await Promise.all([
      startApi('api', viaProxy),
      startWorker('worker-1', smsc.port, { ...WORKER_ENV, ...viaProxy }),
      startWorker('worker-2', smsc.port, { ...WORKER_ENV, ...viaProxy }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([api, ...(workers ?? [])].filter(Boolean).map((s) => s.process.stop()));
    await smsc?.process.stop();
    await pgProxy?.cut();
    await db?.end();
  });

  /** Two sends of `count / 2`, so both workers dispatch. */
  async function campaign(acct: LiveAccount, block: string, count: number, extra: object = {}): Promise<string[]> {
    const numbers = mobiles(block, count);
    const halves = [numbers.slice(0, count / 2), numbers.slice(count / 2)];
    const answers = await Promise.all(
      halves.map((half) => sendRetrying(api.url, acct.auth, { messages: half.map((to) => ({ to, message: 'Chaos', sender: 'Brand', ...extra })) })),
    );
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    return numbers;
  }

  async function submittedCounts(block: string): Promise<Map<string, number>> {
    return smsc.control.destinations(`614${block}`);
  }

  async function expectAllDeliveredOnce(acct: LiveAccount, numbers: string[], block: string, allowedRepeats: number, label: string): Promise<void> {
    await until(async () => (await statusCounts(db, acct.accountId)).delivered === numbers.length, `all ${numbers.length} delivered (${label})`, 240_000, 500);
    const submitted = await submittedCounts(block);
    expect(numbers.filter((n) => !submitted.has(international(n)))).toEqual([]);
    const repeats = numbers.filter((n) => (submitted.get(international(n)) ?? 0) > 1).length;
    process.stdout.write(`${label}: ${numbers.length} delivered, ${repeats} submitted twice (allowed ${allowedRepeats})\n`);
    // What each worker warned about meanwhile: the trail to follow when repeats go past the bound.
    for (const worker of workers) process.stdout.write(`  ${worker.process.name} warned: ${JSON.stringify(warningsSince(worker))}\n`);
    expect(repeats).toBeLessThanOrEqual(allowedRepeats);
  }

  /** Each worker's warning and error messages (with their counts) logged since the test began. */
  const warningsSeen = new Map<string, number>();
  beforeEach(() => {
    for (const worker of workers) warningsSeen.set(worker.process.name, worker.process.warnings.length);
  });
  function warningsSince(worker: RunningService): Record<string, number> {
    const counts: Record<string, number> = {};
    for (const line of worker.process.warnings.slice(warningsSeen.get(worker.process.name) ?? 0)) {
      const key = `${String(line.msg)}${line.err ? `: ${String(line.err).slice(0, 80)}` : ''}`;
      counts[key] = (counts[key] ?? 0) + 1;
    }
    return counts;
  }

  async function expectCleanLedger(acct: LiveAccount): Promise<void> {
    for (const scope of [acct.accountId, undefined]) {
      const ledger = await ledgerVerify(scope);
      expect([scope, ledger.code, ledger.report.violations]).toEqual([scope, 0, []]);
      const compliance = await complianceVerify(scope);
      expect([scope, compliance.code, compliance.report.violations]).toEqual([scope, 0, []]);
    }
  }

  const underWay = (block: string, n: number) => until(async () => (await submittedCounts(block)).size >= n, `${n} submitted`, 60_000, 100);

  it('Redis flushed twice mid-dispatch: nothing lost, nothing repeated', async () => {
    const acct = await liveAccount(10_000);
    const numbers = await campaign(acct, '21', 6000);
    await underWay('21', 1000);
    await deleteRedisKeys(process.env.REDIS_URL!, process.env.REDIS_PREFIX!);
    await underWay('21', 3000);
    await deleteRedisKeys(process.env.REDIS_URL!, process.env.REDIS_PREFIX!);
    await expectAllDeliveredOnce(acct, numbers, '21', 0, 'Redis flushed twice');
    await expectCleanLedger(acct);
  });

  it('PostgreSQL cut for 3 s and restored mid-campaign: nothing lost, nothing repeated (the workers keep the answers they had)', async () => {
    const acct = await liveAccount(10_000);
    const numbers = await campaign(acct, '22', 6000);
    await underWay('22', 1500);
    await pgProxy.cut();
    const cutAt = Date.now();
    // The API answers 503 in the envelope while the database is away.
    const during: HttpAnswer = await call(api.url, 'GET', '/v1/account', acct.auth);
    expect([during.status, during.body]).toEqual([503, { error: 'Service temporarily unavailable, please retry' }]);
    await new Promise((r) => setTimeout(r, Math.max(0, 3000 - (Date.now() - cutAt))));
    await pgProxy.restore();
    // The workers lived through it: what they had handed over is recorded once the database is back, and
    // nothing more was handed over meanwhile.
    await expectAllDeliveredOnce(acct, numbers, '22', 0, 'PostgreSQL cut 3 s');
    await expectCleanLedger(acct);
  });

  it("PostgreSQL ending the services' sessions, 20 times in 5 s mid-campaign: no process exits, nothing lost, nothing repeated", async () => {
    const acct = await liveAccount(10_000);
    const numbers = await campaign(acct, '27', 6000);
    await underWay('27', 500);
    // pg_terminate_backend sends an idle session its FATAL at once, so some arrive just as a new connection
    // becomes ready: in one read with its ready-for-query, before whoever asked the pool for it can listen.
    let ended = 0;
    for (let i = 0; i < 20; i++) {
      await new Promise((r) => setTimeout(r, 250));
      const { rows } = await db.query<{ n: number }>(
        `SELECT count(*) FILTER (WHERE pg_terminate_backend(pid))::int AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'sms-api'`,
      );
      ended += rows[0].n;
    }
    expect(ended).toBeGreaterThan(0);
    expect(exitedServices([api, ...workers])).toEqual([]);
    await expectAllDeliveredOnce(acct, numbers, '27', 0, `${ended} sessions ended over 5 s`);
    expect(exitedServices([api, ...workers])).toEqual([]);
    await expectCleanLedger(acct);
  });

  it('the SMSC dropping every bind, ten times in five seconds: nothing lost, repeats within what was on the wire', async () => {
    const acct = await liveAccount(10_000);
    // Answers 20 ms late, so every bind has its window unanswered when it is dropped.
    await smsc.control.setRespDelay(20);
    const bindsBefore = (await smsc.control.stats()).counters.binds;
    const drops = 10;
    try {
      const numbers = await campaign(acct, '23', 6000);
      await underWay('23', 500);
      for (let i = 0; i < drops; i++) {
        await smsc.control.dropConnections();
        await new Promise((r) => setTimeout(r, 500));
      }
      // Each drop can repeat what both workers had unanswered on their binds, sent again on the new binds.
      await expectAllDeliveredOnce(acct, numbers, '23', drops * 2 * BINDS * WINDOW, 'SMSC dropped every bind 10 times');
    } finally {
      await smsc.control.setRespDelay(0);
    }
    const rebinds = (await smsc.control.stats()).counters.binds - bindsBefore;
    process.stdout.write(`SMSC drops: ${rebinds} binds made again after ${drops} drops of every bind\n`);
    expect(rebinds).toBeGreaterThanOrEqual(drops);
    await expectCleanLedger(acct);
  });

  it('a worker killed while cancellations race dispatch: every message is cancelled and refunded, or submitted, never both', async () => {
    const acct = await liveAccount(10_000);
    // 40 custom_refs of 50 messages, all due in 3 s; cancellations start as they fall due.
    const refs = Array.from({ length: 40 }, (_, i) => `race-${i}`);
    const numbers = mobiles('24', 2000);
    const before = await Promise.all(workers.map((w) => metricValue(w, 'sms_parts_submitted_total')));
    const due = new Date(Date.now() + 3000).toISOString().slice(0, 19);
    const answers = await Promise.all(
      [0, 1].map((h) =>
        call(api.url, 'POST', '/v1/messages', acct.auth, {
          messages: numbers.slice(h * 1000, (h + 1) * 1000).map((to, i) => ({ to, message: 'Race', sender: 'Brand', scheduled_for: due, custom_ref: refs[(h * 1000 + i) % 40] })),
        }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    await until(() => Date.now() >= Date.parse(`${due}Z`) - 300, 'the messages to fall due', 10_000, 20);
    const cancels = (async () => {
      const outcomes: number[] = [];
      for (let i = 0; i < refs.length; i += 4) {
        const batch = await Promise.all(refs.slice(i, i + 4).map((ref) => call(api.url, 'DELETE', '/v1/messages', acct.auth, { custom_ref: ref })));
        outcomes.push(...batch.map((b) => b.status));
      }
      return outcomes;
    })();
    // The first worker to submit part of this campaign (its counter counts earlier tests too).
    let busy = -1;
    await until(
      async () => {
        const now = await Promise.all(workers.map((w) => metricValue(w, 'sms_parts_submitted_total')));
        busy = now.findIndex((n, i) => n > before[i]);
        return busy >= 0;
      },
      'a worker to dispatch this campaign',
      20_000,
      20,
    );
    await workers[busy].process.stop('SIGKILL');
    const statuses = await cancels;
    expect(statuses.every((s) => s === 200 || s === 404)).toBe(true);
    workers[busy] = await startWorker(`worker-${busy + 1}b`, smsc.port, { ...WORKER_ENV, DATABASE_URL: proxiedDatabaseUrl() });

    await until(
      async () => {
        const counts = await statusCounts(db, acct.accountId);
        return (counts.delivered ?? 0) + (counts.cancelled ?? 0) === 2000;
      },
      'every message delivered or cancelled',
      240_000,
      500,
    );
    const counts = await statusCounts(db, acct.accountId);
    process.stdout.write(
      `cancel race with a SIGKILL: ${counts.cancelled ?? 0} cancelled, ${counts.delivered ?? 0} delivered, cancels answered ${JSON.stringify(count(statuses))}\n`,
    );
    const cancelled = new Set(
      (await db.query<{ to_number: string }>(`SELECT to_number FROM messages WHERE account_id = $1 AND status = 'cancelled'`, [acct.accountId])).rows.map((r) => r.to_number),
    );
    const submitted = await submittedCounts('24');
    expect([...cancelled].filter((n) => submitted.has(n))).toEqual([]);
    expect(numbers.filter((n) => !cancelled.has(international(n)) && !submitted.has(international(n)))).toEqual([]);
    await expectCleanLedger(acct);
  });

  function proxiedDatabaseUrl(): string {
    const url = new URL(process.env.DATABASE_URL!);
    url.port = String(pgProxy.port);
    return url.toString();
  }
});

function count(values: number[]): Record<number, number> {
  return values.reduce<Record<number, number>>((acc, v) => ({ ...acc, [v]: (acc[v] ?? 0) + 1 }), {});
}
