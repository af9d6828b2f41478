import { DataSource } from 'typeorm';
import { SweeperService } from '../../src/delivery/worker/sweeper.service';
import { SmscSimulator } from '../../src/smsc-sim/smsc-simulator';
import { startSmsc, smppSettings, statusCounts } from '../support/delivery';
import { createAccount, startTestApp, TestApp } from '../support/test-app';
import { until } from '../support/wait';

describe('Delivery on test accounts (simulated receipts, no carrier)', () => {
  let smsc: SmscSimulator;
  let t: TestApp;

  beforeAll(async () => {
    const started = await startSmsc();
    smsc = started.smsc;
    // An SMSC is configured, to show test accounts never reach it.
    t = await startTestApp(smppSettings(started.port, { testReceiptDelayMs: 1500 }));
  });
  afterAll(async () => {
    await t.close();
    await smsc.stop();
  });

  it('reports delivered, and failed for numbers ending in 000, one receipt per part after the delay', async () => {
    const sandbox = await createAccount(t.app, { test: true, senders: ['Brand'] });
    const res = await t.api.post('/v1/messages', {
      auth: sandbox.auth,
      body: {
        messages: [
          { to: '0412345678', message: 'a'.repeat(200), sender: 'Brand' },
          { to: '0412345000', message: 'fails', sender: 'Brand' },
        ],
      },
    });
    const [ok, bad] = res.body.results.map((r: { message_id: string }) => r.message_id);
    const statusOf = async (id: string) => (await t.api.get('/v1/messages', { auth: sandbox.auth, query: { message_id: id } })).body.results[0].status;
    await until(async () => (await statusOf(ok)) === 'sent', 'submission to the simulator');
    // Each part's receipt falls due the configured delay (1.5 s) after its submission to the simulated
    // carrier, which is recorded (submitted_at) a little later: ignoring the delay would make it due before
    // it was recorded. The margin allows a second of recording on a loaded machine; once applied, a
    // receipt's due time is cleared and its receipt time (never before it was due) stands for it.
    const ds = t.app.get(DataSource);
    // A message shows `sent` once claimed; its parts are recorded a moment later (group commit).
    const recordedParts = async () => Number((await ds.query(`SELECT count(*) AS n FROM message_parts WHERE message_id = $1`, [ok]))[0].n);
    await until(async () => (await recordedParts()) === 2, 'the parts recorded');
    const due: Array<{ due: Date | null; delay_ms: string }> = await ds.query(
      `SELECT receipt_due_at AS due, extract(epoch FROM coalesce(receipt_due_at, receipt_at) - submitted_at) * 1000 AS delay_ms FROM message_parts WHERE message_id = $1`,
      [ok],
    );
    expect(due).toHaveLength(2);
    for (const part of due) expect(Number(part.delay_ms)).toBeGreaterThan(500);
    // Run the receipt applier now, to its end: a receipt due at once (delay ignored) would be applied here.
    await t.app.get(SweeperService).sweep();
    // Only a sweep that ended before the receipts fell due proves the applier waited for them; on a loaded
    // machine it may end later, and then applying them was right.
    const [{ now }] = await ds.query(`SELECT now() AS now`);
    if (due.every((part) => part.due !== null && now < part.due)) expect(await statusOf(ok)).toBe('sent'); // the receipt waits for the configured delay
    await until(async () => (await statusCounts(t, res.body.send_id)).delivered === 1 && (await statusCounts(t, res.body.send_id)).failed === 1, 'simulated receipts', 10_000);
    const parts: Array<{ message_id: string; status: string; smsc_id: string }> = await t.app
      .get(DataSource)
      .query('SELECT message_id, status, smsc_id FROM message_parts WHERE message_id = ANY($1::uuid[]) ORDER BY message_id, part_number', [[ok, bad]]);
    expect(parts.filter((p) => p.message_id === ok).map((p) => p.status)).toEqual(['delivered', 'delivered']);
    expect(parts.filter((p) => p.message_id === bad).map((p) => p.status)).toEqual(['failed']);
    expect(parts.every((p) => p.smsc_id.startsWith('sim-'))).toBe(true);
    expect(smsc.counters.submits).toBe(0);
    expect(smsc.counters.connections).toBeGreaterThan(0); // the live carrier was bound all along
  });

  it('still delivers simulated receipts that fell due while no worker ran (the sweeper applies them)', async () => {
    const sandbox = await createAccount(t.app, { test: true, senders: ['Brand'] });
    const res = await t.api.post('/v1/messages', { auth: sandbox.auth, body: { messages: [{ to: '0412345679', message: 'x', sender: 'Brand' }] } });
    await until(async () => (await statusCounts(t, res.body.send_id)).sent === 1, 'submission');
    // As if the delayed job had been lost: the receipt is already due and only the sweeper can apply it.
    await t.app.get(DataSource).query(`UPDATE message_parts SET receipt_due_at = now() - interval '1 minute' WHERE message_id = $1`, [res.body.results[0].message_id]);
    await until(async () => (await statusCounts(t, res.body.send_id)).delivered === 1, 'the sweeper to apply the receipt');
  });
});
