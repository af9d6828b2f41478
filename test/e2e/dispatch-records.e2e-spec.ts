import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { UnitOfWork } from '../../src/database/unit-of-work';
import type { DeliveryReceipt } from '../../src/delivery/worker/carriers/carrier';
import { ClaimsRepository } from '../../src/delivery/state/claims.repository';
import { OutcomesRepository } from '../../src/delivery/state/outcomes.repository';
import type { PartOutcome } from '../../src/delivery/state/part-changes';
import { ReceiptsRepository } from '../../src/delivery/state/receipts.repository';
import { uuid7 } from '../../src/common/ids/uuid7';
import { createAccount, startTestApp, TestAccount, TestApp } from '../support/test-app';

/**
 * What a submission's outcome and a receipt write, on the real schema: one part row each, never the
 * message's row, and the message's status read from its parts. An API-only app, so no dispatcher of its
 * own interferes.
 */
describe('Dispatch records', () => {
  let t: TestApp;
  let db: DataSource;
  let acct: TestAccount;
  const outcomes = new OutcomesRepository();
  const receipts = new ReceiptsRepository();

  beforeAll(async () => {
    t = await startTestApp({ appRole: 'api' });
    db = t.app.get(DataSource);
    acct = await createAccount(t.app, { credits: 10_000, senders: ['Brand'] });
  });
  afterAll(() => t.close());

  /** One claimed message of `text` (its parts as the carrier would split it); its id and batch. */
  async function claimed(text: string) {
    const res = await t.api.post('/v1/messages', { auth: acct.auth, body: { messages: [{ to: '0412345678', message: text, sender: 'Brand' }] } });
    const batchId = randomUUID();
    const [message] = (await new ClaimsRepository(db).claimDue(res.body.send_id as number, 10, batchId)).messages;
    return { id: message.id, batchId };
  }
  const record = (list: PartOutcome[]) => t.app.get(UnitOfWork).run((tx) => outcomes.recordOutcomes(list, tx));
  const receive = (list: DeliveryReceipt[]) => t.app.get(UnitOfWork).run((tx) => receipts.recordReceipts(list, tx));
  const receipt = (smscId: string, state: 'delivered' | 'failed'): DeliveryReceipt => ({
    carrierId: 0,
    smscId,
    state,
    stat: state === 'delivered' ? 'DELIVRD' : 'UNDELIV',
    err: state === 'delivered' ? '000' : '001',
    doneAt: new Date('2026-11-26T10:00:00Z'),
    receivedAt: new Date(),
  });
  const statusOf = async (id: string) => (await t.api.get('/v1/messages', { auth: acct.auth, query: { message_id: id } })).body.results[0].status as string;
  const rowOf = async (id: string) => (await db.query(`SELECT status, xmin::text FROM messages WHERE id = $1`, [id]))[0] as { status: string; xmin: string };

  it('writes a single-part message’s outcome and receipt onto its part, never its own row, and reads its status from the part', async () => {
    const { id, batchId } = await claimed('hello');
    const accepted = await rowOf(id);
    expect(
      await record([{ batchId, accountId: acct.accountId, messageId: id, partNumber: 1, totalParts: 1, carrierId: 0, smscId: `one-${id}`, error: null, receiptDueAt: null }]),
    ).toEqual([]);
    expect(await statusOf(id)).toBe('sent');
    const changes = await receive([receipt(`one-${id}`, 'delivered')]);
    expect(changes).toEqual([expect.objectContaining({ accountId: acct.accountId, messageId: id, partNumber: 1, totalParts: 1, status: 'delivered' })]);
    expect(await statusOf(id)).toBe('delivered');
    // The row the send wrote, as it wrote it.
    expect(await rowOf(id)).toEqual(accepted);
  });

  it('applies a receipt that overtook its submit_sm_resp as the part is recorded, and reports it then', async () => {
    const { id, batchId } = await claimed('early');
    expect(await receive([receipt(`early-${id}`, 'failed')])).toEqual([]);
    expect(await db.query(`SELECT applied_at FROM delivery_receipts WHERE smsc_id = $1`, [`early-${id}`])).toEqual([{ applied_at: null }]);
    const changes = await record([
      { batchId, accountId: acct.accountId, messageId: id, partNumber: 1, totalParts: 1, carrierId: 0, smscId: `early-${id}`, error: null, receiptDueAt: null },
    ]);
    expect(changes).toEqual([expect.objectContaining({ messageId: id, status: 'failed', atMs: Date.parse('2026-11-26T10:00:00Z') })]);
    expect(await db.query(`SELECT status, receipt_stat, receipt_err FROM message_parts WHERE message_id = $1`, [id])).toEqual([
      { status: 'failed', receipt_stat: 'UNDELIV', receipt_err: '001' },
    ]);
    expect((await db.query(`SELECT applied_at IS NOT NULL AS applied FROM delivery_receipts WHERE smsc_id = $1`, [`early-${id}`]))[0].applied).toBe(true);
    expect(await statusOf(id)).toBe('failed');
  });

  it('applies receipts to a part of a message made months before (outside the recent months first looked in) and to a recent one in one batch, stores an early one, and ignores their repeats', async () => {
    const recent = await claimed('recent');
    const old = await claimed('made long ago');
    const part = (id: string, batchId: string, smscId: string): PartOutcome => ({
      batchId,
      accountId: acct.accountId,
      messageId: id,
      partNumber: 1,
      totalParts: 1,
      carrierId: 0,
      smscId,
      error: null,
      receiptDueAt: null,
    });
    await record([part(recent.id, recent.batchId, `r-${recent.id}`), part(old.id, old.batchId, `o-${old.id}`)]);
    // The part as a message made in January 2025 has it (a scheduled message goes out long after it was made).
    const oldId = uuid7(Date.UTC(2025, 0, 15));
    await db.query(`UPDATE message_parts SET message_id = $2 WHERE message_id = $1`, [old.id, oldId]);
    const stray = `nopart-${randomUUID()}`;
    const batch = [receipt(`r-${recent.id}`, 'delivered'), receipt(`o-${old.id}`, 'failed'), receipt(stray, 'delivered')];
    const changes = await receive(batch);
    expect(changes.map((c) => [c.messageId, c.status]).sort()).toEqual(
      [
        [recent.id, 'delivered'],
        [oldId, 'failed'],
      ].sort(),
    );
    expect(await db.query(`SELECT status, tableoid::regclass::text AS part FROM message_parts WHERE message_id = $1`, [oldId])).toEqual([
      { status: 'failed', part: 'message_parts_p_old' },
    ]);
    expect(await db.query(`SELECT smsc_id FROM delivery_receipts WHERE smsc_id = ANY($1) ORDER BY smsc_id`, [batch.map((r) => r.smscId)])).toEqual([{ smsc_id: stray }]);
    // Repeats find their parts settled: nothing changes, nothing more is stored.
    expect(await receive(batch.slice(0, 2))).toEqual([]);
    expect(await db.query(`SELECT count(*)::int AS n FROM delivery_receipts WHERE smsc_id = ANY($1)`, [batch.map((r) => r.smscId)])).toEqual([{ n: 1 }]);
  });

  it('reads a multi-part message as sent until every part is delivered, and failed once any part fails', async () => {
    const parts = (id: string, batchId: string, prefix: string): PartOutcome[] =>
      [1, 2].map((n) => ({
        batchId,
        accountId: acct.accountId,
        messageId: id,
        partNumber: n,
        totalParts: 2,
        carrierId: 0,
        smscId: `${prefix}${n}-${id}`,
        error: null,
        receiptDueAt: null,
      }));
    const ok = await claimed('a'.repeat(200));
    await record(parts(ok.id, ok.batchId, 'ok'));
    await receive([receipt(`ok1-${ok.id}`, 'delivered')]);
    expect(await statusOf(ok.id)).toBe('sent');
    await receive([receipt(`ok2-${ok.id}`, 'delivered')]);
    expect(await statusOf(ok.id)).toBe('delivered');

    const bad = await claimed('b'.repeat(200));
    await record(parts(bad.id, bad.batchId, 'bad'));
    await receive([receipt(`bad2-${bad.id}`, 'failed')]);
    expect(await statusOf(bad.id)).toBe('failed');
    // The history filter reads the same status.
    const history = await t.api.get('/v1/messages', { auth: acct.auth, query: { status: 'failed' } });
    expect(history.body.results.map((m: { message_id: string }) => m.message_id)).toContain(bad.id);
    expect(history.body.results.map((m: { message_id: string }) => m.message_id)).not.toContain(ok.id);
  });

  it('changes nothing when the same submission is recorded again (a retry after a lost commit answer): its receipt and status stay; a resubmission still wins', async () => {
    const { id, batchId } = await claimed('again');
    const first: PartOutcome = {
      batchId,
      accountId: acct.accountId,
      messageId: id,
      partNumber: 1,
      totalParts: 1,
      carrierId: 0,
      smscId: `again-${id}`,
      error: null,
      receiptDueAt: null,
    };
    await record([first]);
    await receive([receipt(`again-${id}`, 'delivered')]);
    const settled = await db.query(`SELECT status, smsc_id, receipt_stat, receipt_at, submitted_at FROM message_parts WHERE message_id = $1`, [id]);
    expect(await record([first])).toEqual([]);
    expect(await db.query(`SELECT status, smsc_id, receipt_stat, receipt_at, submitted_at FROM message_parts WHERE message_id = $1`, [id])).toEqual(settled);
    expect(await statusOf(id)).toBe('delivered');

    // A refusal recorded twice reports its change once.
    const refused = await claimed('refused twice');
    const refusal: PartOutcome = { ...first, messageId: refused.id, batchId: refused.batchId, smscId: null, error: 'submit_sm rejected: ESME_RINVDSTADR' };
    expect(await record([refusal])).toEqual([expect.objectContaining({ messageId: refused.id, status: 'failed' })]);
    expect(await record([refusal])).toEqual([]);

    // Taken back and sent again: the later SMSC id is recorded, and the part waits for its receipt.
    await record([{ ...first, smscId: `again2-${id}` }]);
    expect(await db.query(`SELECT status, smsc_id FROM message_parts WHERE message_id = $1`, [id])).toEqual([{ status: 'submitted', smsc_id: `again2-${id}` }]);
  });

  it('matches receipts on (carrier, SMSC id): the same id on two carriers settles only its own carrier’s part, early or not', async () => {
    const a = await claimed('carrier a');
    const b = await claimed('carrier b');
    const shared = `shared-${a.id}`;
    const outcome = (m: { id: string; batchId: string }, carrierId: number): PartOutcome => ({
      batchId: m.batchId,
      accountId: acct.accountId,
      messageId: m.id,
      partNumber: 1,
      totalParts: 1,
      carrierId,
      smscId: shared,
      error: null,
      receiptDueAt: null,
    });
    await record([outcome(a, 0)]);
    // Carrier 3's receipt overtakes its part: it is kept apart from carrier 0's part of the same id.
    expect(await receive([{ ...receipt(shared, 'failed'), carrierId: 3 }])).toEqual([]);
    expect(await statusOf(a.id)).toBe('sent');
    expect(await record([outcome(b, 3)])).toEqual([expect.objectContaining({ messageId: b.id, status: 'failed' })]);
    expect(await statusOf(a.id)).toBe('sent');
    expect(await receive([receipt(shared, 'delivered')])).toEqual([expect.objectContaining({ messageId: a.id, status: 'delivered' })]);
    expect([await statusOf(a.id), await statusOf(b.id)]).toEqual(['delivered', 'failed']);
    expect(await db.query(`SELECT carrier_id FROM message_parts WHERE message_id = ANY($1) ORDER BY carrier_id`, [[a.id, b.id]])).toEqual([{ carrier_id: 0 }, { carrier_id: 3 }]);
  });

  it('takes a resubmission through another carrier with the same SMSC id as a new submission', async () => {
    const { id, batchId } = await claimed('moved');
    const first: PartOutcome = {
      batchId,
      accountId: acct.accountId,
      messageId: id,
      partNumber: 1,
      totalParts: 1,
      carrierId: 0,
      smscId: `moved-${id}`,
      error: null,
      receiptDueAt: null,
    };
    await record([first]);
    await receive([receipt(`moved-${id}`, 'failed')]);
    await record([{ ...first, carrierId: 4 }]);
    expect(await db.query(`SELECT status, carrier_id FROM message_parts WHERE message_id = $1`, [id])).toEqual([{ status: 'submitted', carrier_id: 4 }]);
    expect(await statusOf(id)).toBe('sent');
  });
});
