import { DataSource } from 'typeorm';
import { SmscSimulator } from '../../src/smsc-sim/smsc-simulator';
import { smppSettings, startSmsc, statusCounts, submitsByDestination } from '../support/delivery';
import { createAccount, startTestApp, TestApp } from '../support/test-app';
import { until } from '../support/wait';

jest.setTimeout(120_000);

const BINDS = 1;
const WINDOW = 2;
/** The most a worker has handed over unrecorded: two carrier windows, rounded up to two groups of ten. */
const IN_FLIGHT = 20;

/**
 * A worker whose lease renewals fail while PostgreSQL still answers everything else (what a worker sees
 * once PostgreSQL is back after an outage and its lease ran out meanwhile): the sweeper takes its batch
 * back, so the worker must stop handing that batch over before then, or both send it.
 */
describe('Dispatch when the lease cannot be renewed', () => {
  let smsc: SmscSimulator;
  let t: TestApp;

  beforeAll(async () => {
    // 50 ms per answer and two in flight: about 40 messages a second, so a send of 300 is under way for seconds.
    const started = await startSmsc({ respDelayMs: 50 });
    smsc = started.smsc;
    t = await startTestApp(smppSettings(started.port, { smppBinds: BINDS, smppWindow: WINDOW, dispatchBatchSize: 500, claimTimeoutMs: 1000, sweepIntervalMs: 100 }));
  });
  afterAll(async () => {
    await t?.close();
    await smsc?.stop();
  });

  it('stops handing the batch over before the sweeper can take it back, then sends the rest once: nothing lost, repeats within what was in flight', async () => {
    const db = t.app.get(DataSource);
    const acct = await createAccount(t.app, { credits: 10_000, senders: ['Brand'] });
    const numbers = Array.from({ length: 300 }, (_, i) => `0413${String(100001 + i)}`);
    const res = await t.api.post('/v1/messages', { auth: acct.auth, body: { messages: numbers.map((to) => ({ to, message: 'Fenced', sender: 'Brand' })) } });
    expect(res.status).toBe(200);
    const submitted = () => [...submitsByDestination(smsc).keys()].filter((n) => n.startsWith('61413')).length;
    await until(() => submitted() >= 40, '40 submitted');

    // Every renewal fails from now on (the heartbeat can no longer be written); all else works.
    await db.query(`ALTER TABLE dispatcher_leases ADD CONSTRAINT lease_frozen_for_test CHECK (heartbeat_at < '2000-01-01') NOT VALID`);
    try {
      // Twice the claim timeout: the sweeper has long been free to take the batch back and send it again.
      // (Sending goes on meanwhile in short bursts: a batch claimed anew is safe for its first moments.)
      await new Promise((r) => setTimeout(r, 2000));
    } finally {
      await db.query(`ALTER TABLE dispatcher_leases DROP CONSTRAINT lease_frozen_for_test`);
    }

    await until(async () => (await statusCounts(t, res.body.send_id)).delivered === numbers.length, 'all delivered', 60_000, 200);
    const counts = submitsByDestination(smsc);
    const international = numbers.map((n) => `61${n.slice(1)}`);
    expect(international.filter((n) => !counts.has(n))).toEqual([]);
    const repeats = international.filter((n) => (counts.get(n) ?? 0) > 1).length;
    process.stdout.write(`lease renewals failing for 2 s: ${numbers.length} delivered, ${repeats} submitted twice (allowed ${IN_FLIGHT})\n`);
    expect(repeats).toBeLessThanOrEqual(IN_FLIGHT);
  });
});
