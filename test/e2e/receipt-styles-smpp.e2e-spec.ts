import { DataSource } from 'typeorm';
import { ReceiptWaitsService } from '../../src/delivery/worker/receipt-waits.service';
import { SmscSimulator } from '../../src/smsc-sim/smsc-simulator';
import { smppSettings, startSmsc } from '../support/delivery';
import { createAccount, startTestApp, TestAccount, TestApp } from '../support/test-app';
import { until } from '../support/wait';
import { WebhookReceiver } from '../support/webhook-receiver';

/** The shortest wait the settings allow: a part with no receipt stops waiting a second after submission. */
const RECEIPT_WAIT_MS = 1000;
const THREE_PARTS = `${'a'.repeat(153)}${'b'.repeat(153)}${'c'.repeat(10)}`;

/**
 * What a client sees for a 3-part message under each way a carrier reports receipts (the SMSC simulator's
 * receipt styles): every part, the first part only, or none. Through the whole worker: SMPP submission,
 * receipts, the wait's closing (run by hand here, as the worker's periodic work does), status webhooks.
 */
describe('Receipt styles over SMPP', () => {
  let smsc: SmscSimulator;
  let t: TestApp;
  let acct: TestAccount;
  const receiver = new WebhookReceiver();

  beforeAll(async () => {
    const started = await startSmsc();
    smsc = started.smsc;
    await receiver.start();
    t = await startTestApp(smppSettings(started.port, { webhookAllowPrivate: true, receiptWaitMs: RECEIPT_WAIT_MS, receiptWaitCloseIntervalMs: 0 }));
  });
  beforeEach(async () => {
    acct = await createAccount(t.app, { credits: 10_000, senders: ['Brand'] });
    await t.api.patch('/v1/webhooks', { auth: acct.auth, body: { status: receiver.url('/status') } });
    smsc.faults.setReceipts('every');
  });
  afterAll(async () => {
    await t.close();
    await smsc.stop();
    await receiver.stop();
  });

  const db = () => t.app.get(DataSource);
  async function sendOne(to: string, message: string): Promise<string> {
    const res = await t.api.post('/v1/messages', { auth: acct.auth, body: { messages: [{ to, message, sender: 'Brand' }] } });
    expect(res.status).toBe(200);
    return res.body.results[0].message_id as string;
  }
  const statusOf = async (id: string) => (await t.api.get('/v1/messages', { auth: acct.auth, query: { message_id: id } })).body.results[0].status as string;
  const partsOf = async (id: string) =>
    ((await db().query(`SELECT status FROM message_parts WHERE message_id = $1 ORDER BY part_number`, [id])) as Array<{ status: string }>).map((p) => p.status);
  /** The status webhooks written for a message (each is written with the change it reports), by part. */
  const webhooksOf = async (id: string) =>
    (
      (await db().query(
        `SELECT body::jsonb->>'part_number' AS part, body::jsonb->>'status' AS status FROM webhook_events WHERE account_id = $1 AND body::jsonb->>'message_id' = $2 ORDER BY 1`,
        [acct.accountId, id],
      )) as Array<{ part: string; status: string }>
    ).map((w) => `${w.part} ${w.status}`);
  /** Every receipt the SMSC will send for what it took before: a message sent after, with receipts on, has had its own. */
  async function receiptsSettled(): Promise<void> {
    smsc.faults.setReceipts('every');
    const control = await sendOne('0412300999', 'control');
    await until(async () => (await statusOf(control)) === 'delivered', 'the control message’s receipt');
  }
  /** Runs the worker's closing step until the message's parts have stopped waiting (each wait is a second). */
  async function closeWaits(id: string): Promise<void> {
    const waits = t.app.get(ReceiptWaitsService);
    await until(async () => (await waits.closeDue()) >= 0 && !(await partsOf(id)).includes('submitted'), 'the receipt waits to close', 15_000, 200);
  }

  it('every part reported: delivered with the last receipt, one webhook per part, nothing left to close', async () => {
    const id = await sendOne('0412300001', THREE_PARTS);
    await until(async () => (await statusOf(id)) === 'delivered', 'delivery');
    expect(await partsOf(id)).toEqual(['delivered', 'delivered', 'delivered']);
    expect(await webhooksOf(id)).toEqual(['1 delivered', '2 delivered', '3 delivered']);
  });

  it('first part only: sent with one webhook for part 1, then delivered when the other parts’ waits close, with no more webhooks', async () => {
    smsc.faults.setReceipts('first');
    const id = await sendOne('0412300002', THREE_PARTS);
    await until(async () => (await partsOf(id))[0] === 'delivered', 'the first part’s receipt');
    await receiptsSettled();
    expect(await partsOf(id)).toEqual(['delivered', 'submitted', 'submitted']);
    expect(await statusOf(id)).toBe('sent');
    await closeWaits(id);
    expect(await partsOf(id)).toEqual(['delivered', 'unconfirmed', 'unconfirmed']);
    expect(await statusOf(id)).toBe('delivered');
    expect(await webhooksOf(id)).toEqual(['1 delivered']);
  });

  it('first part only, and it failed: failed at once', async () => {
    smsc.faults.setReceipts('first');
    const id = await sendOne('0412300000', THREE_PARTS);
    await until(async () => (await statusOf(id)) === 'failed', 'the failure');
    await receiptsSettled();
    expect(await webhooksOf(id)).toEqual(['1 failed']);
  });

  it('none reported: sent, and stays sent once every wait has closed, with no webhook invented', async () => {
    smsc.faults.setReceipts('none');
    const id = await sendOne('0412300003', THREE_PARTS);
    await until(async () => (await partsOf(id)).length === 3, 'the submission');
    await receiptsSettled();
    expect(await statusOf(id)).toBe('sent');
    await closeWaits(id);
    expect(await partsOf(id)).toEqual(['unconfirmed', 'unconfirmed', 'unconfirmed']);
    expect(await statusOf(id)).toBe('sent');
    expect(await webhooksOf(id)).toEqual([]);
    // Nothing of this account waits any more.
    const [{ waiting }] = await db().query(`SELECT count(*)::int AS waiting FROM message_parts WHERE account_id = $1 AND status = 'submitted'`, [acct.accountId]);
    expect(waiting).toBe(0);
  });
});
