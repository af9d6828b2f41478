import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { ClaimsRepository } from '../../src/delivery/state/claims.repository';
import { SweepRepository } from '../../src/delivery/state/sweep.repository';
import { BacklogRepository } from '../../src/delivery/state/backlog.repository';
import { OptOutService } from '../../src/inbound/opt-out.service';
import { createAccount, startTestApp, TestAccount, TestApp } from '../support/test-app';

/**
 * Claims by watermark, on the real schema: a claim moves its send's watermark over the next due messages
 * in dispatch order and writes no message row; cancels take only what lies after the watermark, and the
 * two take turns on the send's row. An API-only app, so no dispatcher of its own interferes.
 */
describe('Dispatch claims', () => {
  let t: TestApp;
  let db: DataSource;
  let claims: ClaimsRepository;
  let sweep: SweepRepository;
  let acct: TestAccount;

  beforeAll(async () => {
    t = await startTestApp({ appRole: 'api' });
    db = t.app.get(DataSource);
    claims = new ClaimsRepository(db);
    sweep = new SweepRepository(db);
    acct = await createAccount(t.app, { credits: 10_000, senders: ['Brand'] });
  });
  afterAll(() => t.close());

  /** A send of these messages (the `to` digits after 04123, scheduled_for when given); answers the send and its message ids in request order. */
  async function send(messages: Array<{ to: string; at?: Date }>) {
    const res = await t.api.post('/v1/messages', {
      auth: acct.auth,
      body: { messages: messages.map((m) => ({ to: `04123${m.to}`, message: 'hi', sender: 'Brand', ...(m.at ? { scheduled_for: m.at.toISOString() } : {}) })) },
    });
    expect(res.status).toBe(200);
    return { sendId: res.body.send_id as number, ids: (res.body.results as Array<{ message_id: string }>).map((r) => r.message_id) };
  }
  const ids = (claim: { messages: Array<{ id: string }> }) => claim.messages.map((m) => m.id);
  const cancel = (body: Record<string, unknown>) => t.api.delete('/v1/messages', { auth: acct.auth, body });

  it('takes a send in batches, in order, each message once, and writes no message row', async () => {
    const { sendId, ids: all } = await send(Array.from({ length: 5 }, (_, i) => ({ to: `0000${i}` })));
    const before = await db.query(`SELECT id, xmin::text FROM messages WHERE send_id = $1 ORDER BY id`, [sendId]);
    const first = await claims.claimDue(sendId, 2, randomUUID());
    const second = await claims.claimDue(sendId, 2, randomUUID());
    const third = await claims.claimDue(sendId, 2, randomUUID());
    expect([ids(first), ids(second), ids(third)]).toEqual([all.slice(0, 2), all.slice(2, 4), all.slice(4)]);
    expect(await claims.claimDue(sendId, 2, randomUUID())).toEqual({ messages: [], moved: false });
    // The rows are the versions the send wrote: a claim is the send's watermark and a batch row, not an update of its messages.
    expect(await db.query(`SELECT id, xmin::text FROM messages WHERE send_id = $1 ORDER BY id`, [sendId])).toEqual(before);
    expect((await db.query(`SELECT count(*)::int AS n FROM dispatch_batches WHERE send_id = $1`, [sendId]))[0].n).toBe(3);
  });

  it('takes messages in dispatch order: one scheduled later does not hold back one due now, and is not taken before its time', async () => {
    const { sendId, ids: all } = await send([{ to: '10001', at: new Date(Date.now() + 3_600_000) }, { to: '10002' }]);
    expect(ids(await claims.claimDue(sendId, 10, randomUUID()))).toEqual([all[1]]);
    expect(await claims.claimDue(sendId, 10, randomUUID())).toEqual({ messages: [], moved: false });
    // Its time comes (later than the watermark's message: dispatch times of a send never move back).
    await db.query(`UPDATE messages SET dispatch_at = now() WHERE id = $1`, [all[0]]);
    expect(ids(await claims.claimDue(sendId, 10, randomUUID()))).toEqual([all[0]]);
  });

  it('walks past cancelled messages: a claim of only cancelled ones takes nothing and the next goes on', async () => {
    const soon = new Date(Date.now() + 3_600_000);
    const { sendId, ids: all } = await send([
      { to: '20001', at: soon },
      { to: '20002', at: soon },
      { to: '20003', at: soon },
    ]);
    expect((await cancel({ message_id: all[0] })).status).toBe(200);
    expect((await cancel({ message_id: all[1] })).status).toBe(200);
    await db.query(`UPDATE messages SET dispatch_at = now() - interval '1 second' WHERE send_id = $1`, [sendId]);
    expect(await claims.claimDue(sendId, 2, randomUUID())).toEqual({ messages: [], moved: true });
    expect(ids(await claims.claimDue(sendId, 2, randomUUID()))).toEqual([all[2]]);
    // Only the batch that took a message was written.
    expect((await db.query(`SELECT count(*)::int AS n FROM dispatch_batches WHERE send_id = $1`, [sendId]))[0].n).toBe(1);
  });

  it('cancels only what no claim has taken: a message a dispatcher holds is no longer scheduled (409)', async () => {
    const at = new Date(Date.now() + 3_600_000);
    const { sendId, ids: all } = await send([
      { to: '30001', at },
      { to: '30002', at },
      { to: '30003', at },
    ]);
    await db.query(`UPDATE messages SET dispatch_at = now() - interval '1 second' WHERE id = ANY($1::uuid[])`, [all.slice(0, 2)]);
    expect(ids(await claims.claimDue(sendId, 10, randomUUID()))).toEqual(all.slice(0, 2));
    const held = await cancel({ message_id: all[0] });
    expect([held.status, held.body]).toEqual([409, { error: 'Message is not in a scheduled state' }]);
    // What a reader sees agrees: a claimed message is sent (with the carrier, or about to be), the rest scheduled.
    const lookup = async (id: string) => (await t.api.get('/v1/messages', { auth: acct.auth, query: { message_id: id } })).body.results[0].status;
    expect([await lookup(all[0]), await lookup(all[1]), await lookup(all[2])]).toEqual(['sent', 'sent', 'scheduled']);
    const rest = await cancel({ send_id: sendId });
    expect([rest.status, rest.body.cancelled_count]).toEqual([200, 1]);
    expect(await db.query(`SELECT id, status FROM messages WHERE send_id = $1 ORDER BY to_number`, [sendId])).toEqual([
      { id: all[0], status: 'scheduled' },
      { id: all[1], status: 'scheduled' },
      { id: all[2], status: 'cancelled' },
    ]);
  });

  it('a cancel waits for a claim that holds the send, then leaves what the claim took', async () => {
    const at = new Date(Date.now() + 3_600_000);
    const { sendId, ids: all } = await send([
      { to: '40001', at },
      { to: '40002', at },
    ]);
    await db.query(`UPDATE messages SET dispatch_at = now() - interval '1 second' WHERE id = $1`, [all[0]]);
    // A claim in progress: it holds the send's row, its watermark move not committed yet.
    const claim = db.createQueryRunner();
    await claim.connect();
    await claim.startTransaction();
    await claim.query(`SELECT 1 FROM sends WHERE id = $1 FOR NO KEY UPDATE`, [sendId]);
    await claim.query(`UPDATE sends SET (claimed_through_at, claimed_through_seq) = (SELECT dispatch_at, seq FROM messages WHERE id = $2) WHERE id = $1`, [sendId, all[0]]);
    const cancelling = cancel({ send_id: sendId });
    await waitForLockWait();
    await claim.commitTransaction();
    await claim.release();
    const res = await cancelling;
    expect([res.status, res.body.cancelled_count]).toEqual([200, 1]);
    expect(await db.query(`SELECT id, status FROM messages WHERE send_id = $1 ORDER BY to_number`, [sendId])).toEqual([
      { id: all[0], status: 'scheduled' },
      { id: all[1], status: 'cancelled' },
    ]);
  });

  it('a claim waits for a cancel that holds the send, then takes nothing it cancelled', async () => {
    const { sendId, ids: all } = await send([{ to: '50001' }, { to: '50002' }]);
    // A cancel in progress (an opt-out of the first number): the send's row held, its update not committed yet.
    const opting = db.createQueryRunner();
    await opting.connect();
    await opting.startTransaction();
    await opting.query(`SELECT 1 FROM sends WHERE id = $1 FOR SHARE`, [sendId]);
    await opting.query(`UPDATE messages SET status = 'cancelled' WHERE id = $1`, [all[0]]);
    const claiming = claims.claimDue(sendId, 10, randomUUID());
    await waitForLockWait();
    await opting.commitTransaction();
    await opting.release();
    expect(ids(await claiming)).toEqual([all[1]]);
  });

  it('an opt-out cancels the number’s waiting messages, not one a dispatcher holds', async () => {
    const { sendId, ids: all } = await send([{ to: '60001' }, { to: '60001' }]);
    expect(ids(await claims.claimDue(sendId, 1, randomUUID()))).toEqual([all[0]]);
    await t.app.get(OptOutService).byLink(acct.accountId, '61412360001', null);
    expect(await db.query(`SELECT id, status FROM messages WHERE send_id = $1 ORDER BY seq`, [sendId])).toEqual([
      { id: all[0], status: 'pending' },
      { id: all[1], status: 'cancelled' },
    ]);
  });

  it('lets an opt-out cancel a message of a batch taken back from a dead dispatcher, which reads pending again', async () => {
    const { sendId, ids: all } = await send([{ to: '80001' }, { to: '80002' }]);
    const batch = randomUUID();
    expect(ids(await claims.claimDue(sendId, 10, batch))).toEqual(all);
    const lookup = async (id: string) => (await t.api.get('/v1/messages', { auth: acct.auth, query: { message_id: id } })).body.results[0].status;
    expect(await lookup(all[0])).toBe('sent');
    await db.query(`UPDATE dispatch_batches SET released_at = now() WHERE batch_id = $1`, [batch]);
    expect(await lookup(all[0])).toBe('pending');
    await t.app.get(OptOutService).byLink(acct.accountId, '61412380001', null);
    // The next claim takes the batch back and sends only what was not cancelled.
    expect(ids(await claims.claimDue(sendId, 10, randomUUID()))).toEqual([all[1]]);
    expect(await db.query(`SELECT id, status FROM messages WHERE send_id = $1 ORDER BY seq`, [sendId])).toEqual([
      { id: all[0], status: 'cancelled' },
      { id: all[1], status: 'pending' },
    ]);
  });

  it('shows the sweeper and the health check what waits unclaimed: the first message after each watermark, and released batches', async () => {
    const { sendId, ids: all } = await send([{ to: '70001' }, { to: '70002' }]);
    await db.query(`UPDATE messages SET dispatch_at = now() - interval '10 minutes' WHERE send_id = $1`, [sendId]);
    expect(await sweep.sendsWithUnclaimedDue(1000, 1000)).toContainEqual(expect.objectContaining({ sendId }));
    expect(await t.app.get(BacklogRepository).oldestUnclaimedDueAgeMs()).toBeGreaterThanOrEqual(600_000);
    const batch = randomUUID();
    expect(ids(await claims.claimDue(sendId, 10, batch))).toEqual(all);
    expect(await sweep.sendsWithUnclaimedDue(1000, 1000)).not.toContainEqual(expect.objectContaining({ sendId }));
    await db.query(`UPDATE dispatch_batches SET released_at = now() - interval '1 minute' WHERE batch_id = $1`, [batch]);
    expect(await sweep.sendsWithUnclaimedDue(1000, 1000)).toContainEqual(expect.objectContaining({ sendId }));
    expect(ids(await claims.claimDue(sendId, 10, randomUUID()))).toEqual(all);
    expect(await sweep.sendsWithUnclaimedDue(1000, 1000)).not.toContainEqual(expect.objectContaining({ sendId }));
  });

  /** Until some session of this database waits on a row lock (the other side of the race is blocked). */
  async function waitForLockWait(): Promise<void> {
    for (let waited = 0; ; waited += 10) {
      const [{ n }] = await db.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`);
      if (n > 0) return;
      if (waited > 5000) throw new Error('nothing waited on a lock');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }
});
