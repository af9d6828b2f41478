import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { UnitOfWork } from '../../src/database/unit-of-work';
import type { DeliveryReceipt } from '../../src/delivery/worker/carriers/carrier';
import { ClaimsRepository } from '../../src/delivery/state/claims.repository';
import { OutcomesRepository } from '../../src/delivery/state/outcomes.repository';
import type { PartOutcome } from '../../src/delivery/state/part-changes';
import { ReceiptsRepository } from '../../src/delivery/state/receipts.repository';
import { ReceiptWaitsRepository } from '../../src/delivery/state/receipt-waits.repository';
import { createAccount, startTestApp, TestAccount, TestApp } from '../support/test-app';

/**
 * The wait for receipts, on the real schema: a live part with no receipt stops waiting RECEIPT_WAIT_MS after
 * its submission (unconfirmed), and its message's status follows each receipt style: every part reported,
 * the first part only, or none. An API-only app, so no dispatcher or periodic work of its own interferes;
 * the closing steps run by hand with the wait given (0: every part submitted so far is due).
 */
describe('Receipt waits', () => {
  let t: TestApp;
  let db: DataSource;
  let acct: TestAccount;
  let waits: ReceiptWaitsRepository;
  const outcomes = new OutcomesRepository();
  const receipts = new ReceiptsRepository();

  beforeAll(async () => {
    t = await startTestApp({ appRole: 'api' });
    db = t.app.get(DataSource);
    waits = new ReceiptWaitsRepository(db);
    acct = await createAccount(t.app, { credits: 100_000, senders: ['Brand'] });
  });
  afterAll(() => t.close());

  /** A claimed message of `parts` GSM-7 parts, its parts recorded as submitted on `carrierId`; its id. */
  async function submitted(parts: number, carrierId = 0): Promise<string> {
    const text = parts === 1 ? 'short' : 'x'.repeat(153 * parts);
    const res = await t.api.post('/v1/messages', { auth: acct.auth, body: { messages: [{ to: '0412345678', message: text, sender: 'Brand' }] } });
    const batchId = randomUUID();
    const [message] = (await new ClaimsRepository(db).claimDue(res.body.send_id as number, 10, batchId)).messages;
    const list: PartOutcome[] = Array.from({ length: parts }, (_, i) => ({
      batchId,
      accountId: acct.accountId,
      messageId: message.id,
      partNumber: i + 1,
      totalParts: parts,
      carrierId,
      smscId: smscId(message.id, i + 1),
      error: null,
      receiptDueAt: null,
    }));
    await t.app.get(UnitOfWork).run((tx) => outcomes.recordOutcomes(list, tx));
    return message.id;
  }
  const smscId = (messageId: string, part: number) => `${messageId}/${part}`;
  const receive = (messageId: string, part: number, state: 'delivered' | 'failed') => {
    const receipt: DeliveryReceipt = {
      carrierId: 0,
      smscId: smscId(messageId, part),
      state,
      stat: state === 'delivered' ? 'DELIVRD' : 'UNDELIV',
      err: state === 'delivered' ? '000' : '001',
      doneAt: new Date(),
      receivedAt: new Date(),
    };
    return t.app.get(UnitOfWork).run((tx) => receipts.recordReceipts([receipt], tx));
  };
  const statusOf = async (id: string) => (await t.api.get('/v1/messages', { auth: acct.auth, query: { message_id: id } })).body.results[0].status as string;
  const partsOf = async (id: string) =>
    ((await db.query(`SELECT status FROM message_parts WHERE message_id = $1 ORDER BY part_number`, [id])) as Array<{ status: string }>).map((p) => p.status);
  /** Closes every wait that is over with the wait given, step by step as the worker does. */
  async function closeAll(waitMs: number, perStep = 1000): Promise<number> {
    let closed = 0;
    for (;;) {
      const step = await waits.closeStep(waitMs, perStep);
      closed += Object.values(step.closedByCarrier).reduce((a, b) => a + b, 0);
      if (!step.more) return closed;
    }
  }

  it('leaves a part alone while its wait lasts, then closes it: unconfirmed, its message stays sent', async () => {
    const id = await submitted(1);
    await closeAll(60_000);
    expect(await partsOf(id)).toEqual(['submitted']);
    await closeAll(0);
    expect(await partsOf(id)).toEqual(['unconfirmed']);
    expect(await statusOf(id)).toBe('sent');
    // Closed once: a later step does not look at it again.
    expect(await closeAll(0)).toBe(0);
  });

  it('every part reported: the message settles with its last receipt, and closing changes nothing', async () => {
    const id = await submitted(3);
    await receive(id, 1, 'delivered');
    await receive(id, 2, 'delivered');
    expect(await statusOf(id)).toBe('sent');
    await receive(id, 3, 'delivered');
    expect(await statusOf(id)).toBe('delivered');
    await closeAll(0);
    expect(await partsOf(id)).toEqual(['delivered', 'delivered', 'delivered']);
  });

  it('first part only: delivered once the other parts’ waits close; a failed first part fails it at once', async () => {
    const ok = await submitted(3);
    await receive(ok, 1, 'delivered');
    expect(await statusOf(ok)).toBe('sent');
    const bad = await submitted(3);
    await receive(bad, 1, 'failed');
    expect(await statusOf(bad)).toBe('failed');
    await closeAll(0);
    expect(await partsOf(ok)).toEqual(['delivered', 'unconfirmed', 'unconfirmed']);
    expect(await statusOf(ok)).toBe('delivered');
    expect(await statusOf(bad)).toBe('failed');
    // The history filter reads the same status.
    const delivered = await t.api.get('/v1/messages', { auth: acct.auth, query: { status: 'delivered' } });
    expect(delivered.body.results.map((m: { message_id: string }) => m.message_id)).toContain(ok);
  });

  it('a later part’s receipt alone does not stand for the message: it stays sent', async () => {
    const id = await submitted(2);
    await receive(id, 2, 'delivered');
    await closeAll(0);
    expect(await partsOf(id)).toEqual(['unconfirmed', 'delivered']);
    expect(await statusOf(id)).toBe('sent');
  });

  it('none reported: every part unconfirmed and the message sent; a receipt that comes after the wait still applies', async () => {
    const id = await submitted(2);
    await closeAll(0);
    expect(await partsOf(id)).toEqual(['unconfirmed', 'unconfirmed']);
    expect(await statusOf(id)).toBe('sent');
    const changed = await receive(id, 1, 'failed');
    expect(changed).toEqual([expect.objectContaining({ messageId: id, partNumber: 1, status: 'failed' })]);
    expect(await statusOf(id)).toBe('failed');
  });

  it('never closes a simulated part (its receipt always comes), and counts closed parts by carrier', async () => {
    const simulated = await submitted(1, -1);
    const other = await submitted(2, 5);
    const step = await waits.closeStep(0, 1000);
    expect(step.closedByCarrier).toEqual({ '5': 2 });
    expect(await partsOf(simulated)).toEqual(['submitted']);
    expect(await partsOf(other)).toEqual(['unconfirmed', 'unconfirmed']);
  });

  it('moves its watermark in steps of at most the size given, and closes every due part across the steps', async () => {
    const ids = [await submitted(2), await submitted(2), await submitted(2)];
    const first = await waits.closeStep(0, 2);
    expect(first.more).toBe(true);
    expect(Object.values(first.closedByCarrier).reduce((a, b) => a + b, 0)).toBeLessThan(6);
    await closeAll(0, 2);
    for (const id of ids) expect(await partsOf(id)).toEqual(['unconfirmed', 'unconfirmed']);
  });

  it('skips a step while another worker holds the watermark, closing nothing twice', async () => {
    const id = await submitted(1);
    const runner = db.createQueryRunner();
    await runner.startTransaction();
    try {
      await runner.query(`SELECT 1 FROM receipt_wait_watermark WHERE id = 1 FOR UPDATE`);
      expect(await waits.closeStep(0, 1000)).toEqual({ closedByCarrier: {}, more: false });
      expect(await partsOf(id)).toEqual(['submitted']);
    } finally {
      await runner.rollbackTransaction();
      await runner.release();
    }
    await closeAll(0);
    expect(await partsOf(id)).toEqual(['unconfirmed']);
  });
});
