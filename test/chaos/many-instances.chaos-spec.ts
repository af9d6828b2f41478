import Redis from 'ioredis';
import { Client, Pool } from 'pg';
import { call, complianceVerify, database, international, ledgerVerify, liveAccount, mobiles, statusCounts } from '../support/campaign';
import { metricValue, RunningService, SmscProcess, startApi, startSmscProcess, startWorker } from '../support/processes';
import { until } from '../support/wait';

/** Per worker: 2 binds × 10 outstanding submit_sm. */
const BINDS = 2;
const WINDOW = 10;
const WORKER_ENV = {
  SMPP_BINDS: String(BINDS),
  SMPP_WINDOW: String(WINDOW),
  DISPATCH_BATCH_SIZE: '1000',
  SWEEP_INTERVAL_MS: '200',
  CLAIM_TIMEOUT_MS: '3000',
};

jest.setTimeout(240_000);

/**
 * Two API processes and two worker processes (`node dist/src/main.js`, APP_ROLE api and worker) on one
 * PostgreSQL database and one Redis prefix, with the SMSC simulator as a third kind of process.
 */
describe('Many instances on one PostgreSQL and one Redis', () => {
  let smsc: SmscProcess;
  let apis: RunningService[];
  let workers: RunningService[];
  let db: Pool;

  beforeAll(async () => {
    db = database();
    smsc = await startSmscProcess({ receiptDelayMs: 200 });
    [apis, workers] = await Promise.all([
      Promise.all([startApi('api-1'), startApi('api-2')]),
      Promise.all([startWorker('worker-1', smsc.port, WORKER_ENV), startWorker('worker-2', smsc.port, WORKER_ENV)]),
    ]);
  });
  afterAll(async () => {
    await Promise.all([...(apis ?? []), ...(workers ?? [])].map((s) => s.process.stop()));
    await smsc?.process.stop();
    await db?.end();
  });

  it('holds the 5-in-flight limit per account across both API processes', async () => {
    const acct = await liveAccount(10);
    // Every GET /v1/contacts takes its slot, then waits on this lock, so requests stay in flight.
    const locker = new Client({ connectionString: process.env.DATABASE_URL });
    await locker.connect();
    try {
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE contacts IN ACCESS EXCLUSIVE MODE');
      // Four to each process: a per-process limit would let all eight in.
      const answers = Array.from({ length: 8 }, (_, i) => call(apis[i % 2].url, 'GET', '/v1/contacts', acct.auth));
      const settled: number[] = [];
      answers.forEach((a) => void a.then((r) => settled.push(r.status)));
      await until(() => settled.length === 3, 'the three requests over the limit to be answered', 15_000);
      expect(settled).toEqual([429, 429, 429]);
      // The five admitted hold their slots in the one shared set, whichever process took them.
      const redis = new Redis(process.env.REDIS_URL!);
      try {
        expect(await redis.zcard(`${process.env.REDIS_PREFIX}:inflight:${acct.accountId}`)).toBe(5);
      } finally {
        redis.disconnect();
      }
      await locker.query('COMMIT');
      const all = await Promise.all(answers);
      expect(all.map((a) => a.status).sort()).toEqual([200, 200, 200, 200, 200, 429, 429, 429]);
      expect(all.filter((a) => a.status === 429).map((a) => a.body)).toEqual(Array(3).fill({ error: 'Too many concurrent requests. Please wait.' }));
    } finally {
      await locker.end();
    }
    // Every slot was given back, on both processes.
    const again = await Promise.all(Array.from({ length: 5 }, (_, i) => call(apis[i % 2].url, 'GET', '/v1/contacts', acct.auth)));
    expect(again.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
  });

  it('takes a 20000-message campaign through both APIs and submits each message exactly once', async () => {
    const acct = await liveAccount(20_000);
    const numbers = mobiles('12', 20_000);
    // Four requests of 5000, two to each API, all at once.
    const chunks = [0, 1, 2, 3].map((i) => numbers.slice(i * 5000, (i + 1) * 5000));
    const answers = await Promise.all(
      chunks.map((chunk, i) => call(apis[i % 2].url, 'POST', '/v1/messages', acct.auth, { messages: chunk.map((to) => ({ to, message: 'Campaign', sender: 'Brand' })) })),
    );
    expect(answers.map((a) => [a.status, a.body.total_cost])).toEqual(Array(4).fill([200, 5000]));
    await until(async () => (await statusCounts(db, acct.accountId)).delivered === 20_000, 'all 20000 delivered', 180_000, 500);

    const submitted = await smsc.control.destinations('61412');
    expect(submitted.size).toBe(20_000);
    expect(numbers.filter((n) => submitted.get(international(n)) !== 1)).toEqual([]);
    expect(await statusCounts(db, acct.accountId)).toEqual({ delivered: 20_000 });
    const ledger = await ledgerVerify(acct.accountId);
    expect([ledger.code, ledger.report.violations]).toEqual([0, []]);
    const compliance = await complianceVerify(acct.accountId);
    expect([compliance.code, compliance.report.violations]).toEqual([0, []]);
  });

  it('loses nothing when a worker is SIGKILLed mid-campaign, and repeats at most its in-flight window', async () => {
    const acct = await liveAccount(20_000);
    const numbers = mobiles('13', 12_000);
    // Answers 20 ms late, so each worker keeps its whole window (BINDS × WINDOW) on the wire.
    await smsc.control.setRespDelay(20);
    try {
      // Two sends, one through each API: each worker takes one, so the one killed is mid-dispatch.
      // The counter is each process's lifetime total: what they submitted for earlier tests does not count.
      const before = await Promise.all(workers.map((w) => metricValue(w, 'sms_parts_submitted_total')));
      const halves = [numbers.slice(0, 6000), numbers.slice(6000)];
      const answers = await Promise.all(
        halves.map((half, i) => call(apis[i].url, 'POST', '/v1/messages', acct.auth, { messages: half.map((to) => ({ to, message: 'Crash test', sender: 'Brand' })) })),
      );
      expect(answers.map((a) => a.status)).toEqual([200, 200]);
      // Whichever worker took a send first, once it is well under way.
      let victim = -1;
      await until(
        async () => {
          const now = await Promise.all(workers.map((w) => metricValue(w, 'sms_parts_submitted_total')));
          victim = now.findIndex((n, i) => n - before[i] >= 1000);
          return victim >= 0;
        },
        'a worker to be under way with this campaign',
        60_000,
        100,
      );
      const killed = workers[victim];
      const onTheWire = await metricValue(killed, 'sms_carrier_in_flight_parts');
      expect(await killed.process.stop('SIGKILL')).toEqual({ code: null, signal: 'SIGKILL' });

      // The other worker takes the dead one's claims back once its lease is CLAIM_TIMEOUT_MS old.
      await until(async () => (await statusCounts(db, acct.accountId)).delivered === 12_000, 'all 12000 delivered after the crash', 180_000, 500);
      const submitted = await smsc.control.destinations('61413');
      expect(numbers.filter((n) => !submitted.has(international(n)))).toEqual([]);
      const duplicates = numbers.filter((n) => (submitted.get(international(n)) ?? 0) > 1).length;
      // Only what the dead worker had handed to its carrier and not yet recorded goes again: the dispatcher
      // keeps at most twice its carrier window (2 × BINDS × WINDOW) in that state. Never a whole claimed
      // batch (DISPATCH_BATCH_SIZE 1000).
      const bound = 2 * BINDS * WINDOW;
      process.stdout.write(
        `SIGKILL mid-campaign: ${onTheWire} part(s) on the dead worker's wire just before the kill; ${duplicates} message(s) submitted twice (bound ${bound})\n`,
      );
      expect(duplicates).toBeLessThanOrEqual(bound);
      expect(numbers.filter((n) => (submitted.get(international(n)) ?? 0) > 2)).toEqual([]);
      const ledger = await ledgerVerify(acct.accountId);
      expect([ledger.code, ledger.report.violations]).toEqual([0, []]);
      const compliance = await complianceVerify(acct.accountId);
      expect([compliance.code, compliance.report.violations]).toEqual([0, []]);
    } finally {
      await smsc.control.setRespDelay(0);
      const dead = workers.findIndex((w) => !w.process.running);
      if (dead >= 0) workers[dead] = await startWorker(`worker-${dead + 1}b`, smsc.port, WORKER_ENV);
    }
  });
});
