import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { keyLookupsOnly } from '../../src/database/sql';
import { UnitOfWork } from '../../src/database/unit-of-work';
import { ClaimsRepository } from '../../src/delivery/state/claims.repository';
import { LeasesRepository } from '../../src/delivery/state/leases.repository';
import { STALE_BATCHES, SweepRepository } from '../../src/delivery/state/sweep.repository';
import { OutcomesRepository } from '../../src/delivery/state/outcomes.repository';
import { createAccount, startTestApp, TestApp } from '../support/test-app';

/**
 * Which claims the sweeper takes back (releaseStaleClaims), on the real schema: only batches older than
 * the timeout that no fresh lease lists; a released batch goes to the send's next claim. An API-only app,
 * so no dispatcher of its own interferes.
 */
describe('Dispatcher leases', () => {
  let t: TestApp;
  let db: DataSource;
  let claims: ClaimsRepository;
  let leases: LeasesRepository;
  let sweep: SweepRepository;
  const outcomes = new OutcomesRepository();

  beforeAll(async () => {
    t = await startTestApp({ appRole: 'api' });
    db = t.app.get(DataSource);
    claims = new ClaimsRepository(db);
    leases = new LeasesRepository(db);
    sweep = new SweepRepository(db);
  });
  afterAll(() => t.close());

  /** A send of `n` due messages, claimed by a batch of dispatcher `dispatcherId`, claimed an hour ago. */
  async function oldClaim(n: number) {
    const acct = await createAccount(t.app, { credits: 100, senders: ['Brand'] });
    const res = await t.api.post('/v1/messages', {
      auth: acct.auth,
      body: { messages: Array.from({ length: n }, (_, i) => ({ to: `04123456${10 + i}`, message: 'hi', sender: 'Brand' })) },
    });
    const sendId = res.body.send_id as number;
    const batch = randomUUID();
    expect((await claims.claimDue(sendId, 100, batch)).messages).toHaveLength(n);
    await db.query(`UPDATE dispatch_batches SET claimed_at = now() - interval '1 hour' WHERE batch_id = $1`, [batch]);
    return { sendId, batch, dispatcherId: randomUUID(), accountId: acct.accountId };
  }

  /** The send's batches: released (taken back, waiting for the next claim) or held by a dispatcher. */
  const batches = async (sendId: number) =>
    (
      await db.query(
        `SELECT count(*) FILTER (WHERE released_at IS NULL)::int AS held, count(*) FILTER (WHERE released_at IS NOT NULL)::int AS released FROM dispatch_batches WHERE send_id = $1`,
        [sendId],
      )
    )[0] as { held: number; released: number };

  it('never takes back the claims of a live dispatcher that lists the batch, however old they are', async () => {
    const { sendId, batch, dispatcherId } = await oldClaim(3);
    await leases.renewLease(dispatcherId, [randomUUID(), batch]);
    expect(await sweep.releaseStaleClaims(1000)).not.toContain(sendId);
    expect(await batches(sendId)).toEqual({ held: 1, released: 0 });
  });

  it('takes them back once the lease is older than the timeout (the dispatcher died)', async () => {
    const { sendId, batch, dispatcherId } = await oldClaim(3);
    await leases.renewLease(dispatcherId, [batch]);
    await db.query(`UPDATE dispatcher_leases SET heartbeat_at = now() - interval '2 seconds' WHERE dispatcher_id = $1`, [dispatcherId]);
    expect(await sweep.releaseStaleClaims(1000)).toContain(sendId);
    expect(await batches(sendId)).toEqual({ held: 0, released: 1 });
    // The send's next claim takes the released batch's messages, all three, before anything else.
    const again = randomUUID();
    expect((await claims.claimDue(sendId, 100, again)).messages).toHaveLength(3);
    expect(await db.query(`SELECT batch_id FROM dispatch_batches WHERE send_id = $1 AND released_at IS NULL`, [sendId])).toEqual([{ batch_id: again }]);
    expect(await claims.claimDue(sendId, 100, randomUUID())).toEqual({ messages: [], moved: false });
  });

  it('takes back the claims of a batch its live dispatcher no longer lists (it ended without recording them)', async () => {
    const { sendId, dispatcherId } = await oldClaim(2);
    await leases.renewLease(dispatcherId, [randomUUID()]);
    expect(await sweep.releaseStaleClaims(1000)).toContain(sendId);
  });

  it('leaves young claims alone whatever the lease says, and forgets recorded ones for good', async () => {
    const { sendId, batch } = await oldClaim(2);
    await db.query(`UPDATE dispatch_batches SET claimed_at = now() WHERE batch_id = $1`, [batch]);
    expect(await sweep.releaseStaleClaims(60_000)).not.toContain(sendId);
    expect(await batches(sendId)).toEqual({ held: 1, released: 0 });
    const recorded = await oldClaim(1);
    const [{ id }] = await db.query(`SELECT id FROM messages WHERE send_id = $1`, [recorded.sendId]);
    await t.app
      .get(UnitOfWork)
      .run((tx) =>
        outcomes.recordOutcomes(
          [{ batchId: recorded.batch, accountId: recorded.accountId, messageId: id, partNumber: 1, totalParts: 1, carrierId: 0, smscId: 'x', error: null, receiptDueAt: null }],
          tx,
        ),
      );
    expect(await sweep.releaseStaleClaims(1000)).not.toContain(recorded.sendId);
    expect(await batches(recorded.sendId)).toEqual({ held: 0, released: 0 });
  });

  it('looks only at batches claimed longer ago than the timeout: one claimed since its dispatcher last renewed its lease is not even read', async () => {
    const { sendId, batch } = await oldClaim(2);
    // Unlisted (no lease names it) but claimed just now: in flight, so its messages are not walked.
    await db.query(`UPDATE dispatch_batches SET claimed_at = now() WHERE batch_id = $1`, [batch]);
    expect(await sweep.releaseStaleClaims(60_000)).not.toContain(sendId);
    expect(await batches(sendId)).toEqual({ held: 1, released: 0 });
    await db.query(`UPDATE dispatch_batches SET claimed_at = now() - interval '2 minutes' WHERE batch_id = $1`, [batch]);
    expect(await sweep.releaseStaleClaims(60_000)).toContain(sendId);
    expect(await batches(sendId)).toEqual({ held: 0, released: 1 });
  });

  it('plans the sweep by key and never JIT-compiles it (a remaining sequential scan carries a 10^10 penalty that would)', async () => {
    await oldClaim(1);
    const plan = await db.transaction(async (tx) => {
      await keyLookupsOnly(tx);
      const [{ jit }] = await tx.query(`SELECT current_setting('jit') AS jit`);
      expect(jit).toBe('off');
      // The sweep's own statement (its batch selection), as the sweeper runs it.
      const [row] = await tx.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${STALE_BATCHES}`, [1000]);
      return row['QUERY PLAN'][0] as { Plan: { 'Total Cost': number }; JIT?: unknown };
    });
    expect(plan.Plan['Total Cost']).toBeGreaterThan(100_000); // past jit_above_cost: JIT would have run
    expect(plan.JIT).toBeUndefined();
    // The settings are the transaction's own.
    const [{ jit }] = await db.query(`SELECT current_setting('jit') AS jit`);
    expect(jit).not.toBe('off');
  });

  it('a part submitted again (its claim was taken back and sent anew) forgets the receipt of its earlier submission', async () => {
    const { sendId, batch, accountId } = await oldClaim(1);
    const [{ id }] = await db.query(`SELECT id FROM messages WHERE send_id = $1`, [sendId]);
    const outcome = (smscId: string) => ({ batchId: batch, accountId, messageId: id, partNumber: 1, totalParts: 1, carrierId: 0, smscId, error: null, receiptDueAt: null });
    await t.app.get(UnitOfWork).run((tx) => outcomes.recordOutcomes([outcome('first-id')], tx));
    await db.query(`UPDATE message_parts SET status = 'delivered', receipt_at = now(), receipt_stat = 'DELIVRD', receipt_err = '000' WHERE message_id = $1`, [id]);
    await t.app.get(UnitOfWork).run((tx) => outcomes.recordOutcomes([outcome('second-id')], tx));
    expect(await db.query(`SELECT smsc_id, status, receipt_at, receipt_stat, receipt_err FROM message_parts WHERE message_id = $1`, [id])).toEqual([
      { smsc_id: 'second-id', status: 'submitted', receipt_at: null, receipt_stat: null, receipt_err: null },
    ]);
  });

  it('never takes back a claim whose outcome is being recorded: the batch is held by the recording transaction and skipped', async () => {
    // The dispatcher's lease is stale (a long outage, say) while it still records what the carrier answered.
    const { sendId, batch, dispatcherId, accountId } = await oldClaim(2);
    await leases.renewLease(dispatcherId, [batch]);
    await db.query(`UPDATE dispatcher_leases SET heartbeat_at = now() - interval '2 seconds' WHERE dispatcher_id = $1`, [dispatcherId]);
    const [first, second] = (await db.query(`SELECT id FROM messages WHERE send_id = $1 ORDER BY to_number`, [sendId])) as Array<{ id: string }>;
    let commit!: () => void;
    const commitNow = new Promise<void>((resolve) => (commit = resolve));
    let recorded!: () => void;
    const partWritten = new Promise<void>((resolve) => (recorded = resolve));
    const recording = t.app.get(UnitOfWork).run(async (tx) => {
      await outcomes.recordOutcomes(
        [{ batchId: batch, accountId, messageId: first.id, partNumber: 1, totalParts: 1, carrierId: 0, smscId: `held-${sendId}`, error: null, receiptDueAt: null }],
        tx,
      );
      recorded();
      await commitNow;
    });
    await partWritten;
    // The outcome is written but not committed: a sweep now would see the message as unrecorded.
    expect(await sweep.releaseStaleClaims(1000)).not.toContain(sendId);
    expect(await batches(sendId)).toEqual({ held: 1, released: 0 });
    commit();
    await recording;
    // Once committed, the next sweep takes the batch back, and the next claim takes only the message without an outcome.
    expect(await sweep.releaseStaleClaims(1000)).toContain(sendId);
    expect((await claims.claimDue(sendId, 100, randomUUID())).messages.map((m) => m.id)).toEqual([second.id]);
    expect(await db.query(`SELECT smsc_id FROM message_parts WHERE message_id = $1`, [first.id])).toEqual([{ smsc_id: `held-${sendId}` }]);
  });

  it('a recording waits for a sweep that holds its batch, then records the message the sweep took back as sent', async () => {
    const { sendId, batch, accountId } = await oldClaim(1);
    const [{ id }] = await db.query(`SELECT id FROM messages WHERE send_id = $1`, [sendId]);
    // A sweep in progress: it holds the batch and has taken the claim back, not committed yet.
    const sweep = db.createQueryRunner();
    await sweep.connect();
    await sweep.startTransaction();
    await sweep.query(`SELECT 1 FROM dispatch_batches WHERE batch_id = $1 FOR UPDATE`, [batch]);
    await sweep.query(`UPDATE dispatch_batches SET released_at = now() WHERE batch_id = $1`, [batch]);
    let recorded = false;
    const recording = t.app
      .get(UnitOfWork)
      .run((tx) =>
        outcomes.recordOutcomes(
          [{ batchId: batch, accountId, messageId: id, partNumber: 1, totalParts: 1, carrierId: 0, smscId: `late-${sendId}`, error: null, receiptDueAt: null }],
          tx,
        ),
      )
      .then(() => (recorded = true));
    // The recording's session waits on the batch row (a lock wait, seen by PostgreSQL), not on anything else.
    for (let waited = 0; ; waited += 10) {
      const [{ n }] = await db.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`);
      if (n === 1) break;
      if (waited > 5000) throw new Error('the recording never waited for the batch row');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(recorded).toBe(false);
    await sweep.commitTransaction();
    await sweep.release();
    await recording;
    // Sent after all (it was), with its SMSC id: the send's next claim finds nothing of the released batch to send again.
    expect(await db.query(`SELECT smsc_id, status FROM message_parts WHERE message_id = $1`, [id])).toEqual([{ smsc_id: `late-${sendId}`, status: 'submitted' }]);
    expect(await claims.claimDue(sendId, 100, randomUUID())).toEqual({ messages: [], moved: false });
    expect(await batches(sendId)).toEqual({ held: 0, released: 0 });
  });

  it('records a part answered twice in one group commit once, as its last answer says', async () => {
    const { sendId, batch, accountId } = await oldClaim(1);
    const [{ id }] = await db.query(`SELECT id FROM messages WHERE send_id = $1`, [sendId]);
    const outcome = (smscId: string) => ({ batchId: batch, accountId, messageId: id, partNumber: 1, totalParts: 1, carrierId: 0, smscId, error: null, receiptDueAt: null });
    await t.app.get(UnitOfWork).run((tx) => outcomes.recordOutcomes([outcome('first-answer'), outcome('second-answer')], tx));
    expect(await db.query(`SELECT smsc_id FROM message_parts WHERE message_id = $1`, [id])).toEqual([{ smsc_id: 'second-answer' }]);
  });

  it('forgets leases unheard of for an hour, and a dropped lease at once', async () => {
    const [old, gone] = [randomUUID(), randomUUID()];
    await leases.renewLease(old, []);
    await leases.renewLease(gone, []);
    await db.query(`UPDATE dispatcher_leases SET heartbeat_at = now() - interval '61 minutes' WHERE dispatcher_id = $1`, [old]);
    await leases.forgetDeadLeases();
    await leases.dropLease(gone);
    expect((await db.query(`SELECT dispatcher_id FROM dispatcher_leases WHERE dispatcher_id = ANY($1)`, [[old, gone]])).length).toBe(0);
  });
});
