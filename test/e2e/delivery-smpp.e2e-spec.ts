import { DataSource } from 'typeorm';
import { deleteRedisKeys } from '../support/test-env';
import { DeliveryRecordsService } from '../../src/delivery/worker/delivery-records.service';
import { DispatcherService } from '../../src/delivery/worker/dispatcher.service';
import { SweeperService } from '../../src/delivery/worker/sweeper.service';
import { SmscSimulator } from '../../src/smsc-sim/smsc-simulator';
import { startSmsc, smppSettings, statusCounts, submitsByDestination } from '../support/delivery';
import { createAccount, startTestApp, TestAccount, TestApp } from '../support/test-app';
import { until } from '../support/wait';
import { WebhookReceiver } from '../support/webhook-receiver';

describe('Delivery to an SMSC over SMPP (live accounts)', () => {
  let smsc: SmscSimulator;
  let t: TestApp;
  let acct: TestAccount;
  const receiver = new WebhookReceiver();

  beforeAll(async () => {
    const started = await startSmsc();
    smsc = started.smsc;
    await receiver.start();
    // Small claims, so a send of a few hundred is taken in several steps and a cancel can land between them.
    t = await startTestApp(smppSettings(started.port, { webhookAllowPrivate: true, dispatchBatchSize: 20 }));
  });
  beforeEach(async () => {
    acct = await createAccount(t.app, { credits: 10_000, senders: ['Brand', '61400000001'] });
  });
  afterAll(async () => {
    await t.close();
    await smsc.stop();
    await receiver.stop();
  });

  const send = (messages: Array<Record<string, unknown>>, extra: Record<string, unknown> = {}) =>
    t.api.post('/v1/messages', { auth: acct.auth, body: { messages, ...extra } }).then((r) => {
      expect(r.status).toBe(200);
      return r.body as { send_id: number; results: Array<{ message_id: string; status: string }> };
    });
  const parts = (messageId: string) =>
    t.app.get(DataSource).query('SELECT part_number, total_parts, smsc_id, status FROM message_parts WHERE message_id = $1 ORDER BY part_number', [messageId]) as Promise<
      Array<{ part_number: number; total_parts: number; smsc_id: string; status: string }>
    >;
  const statusOf = async (id: string) => (await t.api.get('/v1/messages', { auth: acct.auth, query: { message_id: id } })).body.results[0].status as string;

  it('submits accepted messages at once, stores each part’s SMSC id, and settles them from receipts', async () => {
    const { send_id, results } = await send([
      { to: '0412100001', message: 'Hello', sender: 'Brand' },
      { to: '0412100000', message: 'Will fail', sender: '61400000001' },
    ]);
    await until(async () => (await statusCounts(t, send_id)).delivered === 1 && (await statusCounts(t, send_id)).failed === 1, 'both receipts');
    expect(await statusOf(results[0].message_id)).toBe('delivered');
    expect(await statusOf(results[1].message_id)).toBe('failed');
    // Failed by its receipt, not refused by the SMSC: no carrier_error.
    const lookup = await t.api.get('/v1/messages', { auth: acct.auth, query: { message_id: results[1].message_id } });
    expect(lookup.body.results[0]).not.toHaveProperty('carrier_error');
    const [part] = await parts(results[0].message_id);
    expect(part).toMatchObject({ part_number: 1, total_parts: 1, status: 'delivered' });
    expect(smsc.submits.find((s) => s.smscId === part.smsc_id)).toMatchObject({ destinationAddr: '61412100001', sourceAddr: 'Brand', sourceAddrTon: 5, registeredDelivery: 1 });
    expect(smsc.submits.find((s) => s.destinationAddr === '61412100000')).toMatchObject({ sourceAddr: '61400000001', sourceAddrTon: 1 });
  });

  it('submits a 3-part GSM-7 message as concatenated parts with UDH and data_coding 0', async () => {
    const text = `${'a'.repeat(153)}${'b'.repeat(153)}${'c'.repeat(10)}`;
    const { results } = await send([{ to: '0412100002', message: text, sender: 'Brand' }]);
    await until(async () => (await statusOf(results[0].message_id)) === 'delivered', 'delivery');
    const submits = smsc.submits.filter((s) => s.destinationAddr === '61412100002');
    expect(submits).toHaveLength(3);
    // UDH: length 5, IEI 0 (8-bit reference concatenation), IE length 3, reference, total, sequence.
    const refs = new Set(submits.map((s) => s.udh![3]));
    expect(refs.size).toBe(1);
    for (const [i, s] of submits.sort((a, b) => a.udh![5] - b.udh![5]).entries()) {
      expect(s.dataCoding).toBe(0);
      expect(s.esmClass & 0x40).toBe(0x40);
      expect([...s.udh!]).toEqual([5, 0, 3, submits[0].udh![3], 3, i + 1]);
      expect(s.text).toBe(text.slice(i * 153, (i + 1) * 153));
    }
    expect((await parts(results[0].message_id)).map((p) => p.status)).toEqual(['delivered', 'delivered', 'delivered']);
  });

  it('submits a 2-part UCS-2 message with data_coding 8, never splitting an emoji', async () => {
    const text = `${'ж'.repeat(66)}😀${'ж'.repeat(10)}`;
    const { results } = await send([{ to: '0412100003', message: text, sender: 'Brand' }], { enable_unicode: true });
    await until(async () => (await statusOf(results[0].message_id)) === 'delivered', 'delivery');
    const submits = smsc.submits.filter((s) => s.destinationAddr === '61412100003').sort((a, b) => a.udh![5] - b.udh![5]);
    expect(submits.map((s) => s.dataCoding)).toEqual([8, 8]);
    expect(submits[0].shortMessage.length).toBe(66 * 2);
    expect(submits.map((s) => s.text).join('')).toBe(text);
    expect(submits[1].text.startsWith('😀')).toBe(true);
  });

  it('marks a message failed when any part fails', async () => {
    const { results } = await send([{ to: '0412101000', message: 'x'.repeat(200), sender: 'Brand' }]);
    await until(async () => (await statusOf(results[0].message_id)) === 'failed', 'failure');
    expect((await parts(results[0].message_id)).map((p) => p.status)).toEqual(['failed', 'failed']);
  });

  it('fails a message whose part the SMSC refuses, with the refusal recorded, shown as carrier_error on the lookup and on its failed status webhook', async () => {
    await t.api.patch('/v1/webhooks', { auth: acct.auth, body: { status: receiver.url('/status') } });
    smsc.failNext(1, 0x0b); // ESME_RINVDSTADR
    const { results } = await send([{ to: '0412100801', message: 'refused', sender: 'Brand' }]);
    await until(async () => (await statusOf(results[0].message_id)) === 'failed', 'the refusal');
    const [part]: Array<{ status: string; error: string; smsc_id: string | null; error_code: number | null }> = await t.app
      .get(DataSource)
      .query('SELECT status, error, smsc_id, error_code FROM message_parts WHERE message_id = $1', [results[0].message_id]);
    expect(part).toMatchObject({ status: 'failed', smsc_id: null, error: expect.stringContaining('ESME_RINVDSTADR'), error_code: 0x0b });
    const carrierError = { code: 11, description: 'ESME_RINVDSTADR (0x0000000B)' };
    const lookup = await t.api.get('/v1/messages', { auth: acct.auth, query: { message_id: results[0].message_id } });
    expect(lookup.body.results[0]).toMatchObject({ status: 'failed', carrier_error: carrierError });
    await until(() => receiver.received.some((h) => h.body.message_id === results[0].message_id), 'the status webhook');
    expect(receiver.received.find((h) => h.body.message_id === results[0].message_id)!.body).toMatchObject({
      status: 'failed',
      part_number: 1,
      total_parts: 1,
      carrier_error: carrierError,
    });
  });

  it('applies a receipt that arrives before its submit_sm_resp is recorded', async () => {
    smsc.setReceiptBeforeResp(true);
    try {
      const { send_id } = await send([1, 2, 3, 4, 5].map((i) => ({ to: `041210020${i}`, message: `early ${i}`, sender: 'Brand' })));
      await until(async () => (await statusCounts(t, send_id)).delivered === 5, 'all five delivered');
      const [{ unapplied }] = await t.app
        .get(DataSource)
        .query(
          'SELECT count(*)::int AS unapplied FROM delivery_receipts WHERE applied_at IS NULL AND smsc_id IN (SELECT smsc_id FROM message_parts p JOIN messages m ON m.id = p.message_id WHERE m.send_id = $1)',
          [send_id],
        );
      expect(unapplied).toBe(0);
    } finally {
      smsc.setReceiptBeforeResp(false);
    }
  });

  it('retries throttled submissions until every part is accepted', async () => {
    smsc.throttleNext(6);
    const before = smsc.counters.throttled;
    const { send_id } = await send([1, 2, 3, 4].map((i) => ({ to: `041210030${i}`, message: 'slow down', sender: 'Brand' })));
    await until(async () => (await statusCounts(t, send_id)).delivered === 4, 'delivery after throttling', 20_000);
    expect(smsc.counters.throttled - before).toBe(6);
    for (let i = 1; i <= 4; i++) expect(submitsByDestination(smsc).get(`6141210030${i}`)).toBe(1);
  });

  it('records the outcomes of every batch the process has out in shared transactions, and delivers each message once', async () => {
    const records = t.app.get(DeliveryRecordsService);
    const recording = jest.spyOn(records, 'recordOutcomes');
    try {
      // Two sends at once, in batches of 20 (two lanes each), so groups of different batches are answered
      // within the same milliseconds (numbers ending in 000 would fail on the simulator).
      const sends = await Promise.all(
        ['5', '6'].map((block) => send(Array.from({ length: 100 }, (_, i) => ({ to: `04121${block}${String(i + 1).padStart(4, '0')}`, message: 'shared', sender: 'Brand' })))),
      );
      for (const { send_id } of sends) await until(async () => (await statusCounts(t, send_id)).delivered === 100, `send ${send_id} delivered`, 20_000);
      const batchesPerWrite = recording.mock.calls.map(([outcomes]) => new Set(outcomes.map((o) => o.batchId)).size);
      expect(Math.max(...batchesPerWrite)).toBeGreaterThan(1);
      const submitted = submitsByDestination(smsc);
      for (const block of ['5', '6']) for (let i = 0; i < 100; i++) expect([i, submitted.get(`614121${block}${String(i + 1).padStart(4, '0')}`)]).toEqual([i, 1]);
    } finally {
      recording.mockRestore();
    }
  });

  it('dispatches a scheduled message at its time, not before', async () => {
    const at = new Date(Date.now() + 1500);
    const { send_id, results } = await send([{ to: '0412100401', message: 'later', sender: 'Brand', scheduled_for: at.toISOString() }]);
    // Run the send's dispatch and a sweep now, to their end: a message taken before its time would go out here.
    expect(await t.app.get(DispatcherService).dispatchSend(send_id)).toBe(0);
    await t.app.get(SweeperService).sweep();
    expect(await statusOf(results[0].message_id)).toBe('scheduled');
    expect(submitsByDestination(smsc).get('61412100401')).toBeUndefined();
    await until(async () => (await statusOf(results[0].message_id)) === 'delivered', 'the scheduled delivery', 10_000);
    const [submit] = smsc.submits.filter((s) => s.destinationAddr === '61412100401');
    expect(submit.receivedAt.getTime()).toBeGreaterThanOrEqual(Math.floor(at.getTime() / 1000) * 1000);
  });

  it('dispatches a staggered send in planned order: the first now, each later one when its time comes', async () => {
    const list_id = (await t.api.post('/v1/lists', { auth: acct.auth, body: { name: 'Stagger' } })).body.list_id;
    for (let i = 0; i < 3; i++) await t.api.post('/v1/list-contacts', { auth: acct.auth, body: { list_id, number: `041210050${i}` } });
    const res = await t.api.post('/v1/list-send', { auth: acct.auth, body: { list_id, sender: 'Brand', message: 'wave', stagger_minutes: 1, custom_ref: 'stagger-e2e' } });
    const planned: Array<{ id: string; dispatch_at: Date; to_number: string }> = await t.app
      .get(DataSource)
      .query('SELECT id, dispatch_at, to_number FROM messages WHERE send_id = $1 ORDER BY dispatch_at', [res.body.send_id]);
    await until(async () => (await statusOf(planned[0].id)) === 'delivered', 'the first message');
    expect(await statusOf(planned[1].id)).toBe('scheduled');
    expect(await statusOf(planned[2].id)).toBe('scheduled');
    // Bring the second planned time forward (as if 20 s had passed): it goes out, the third still waits.
    await t.app.get(DataSource).query(`UPDATE messages SET dispatch_at = now() WHERE id = $1`, [planned[1].id]);
    await until(async () => (await statusOf(planned[1].id)) === 'delivered', 'the second message');
    expect(await statusOf(planned[2].id)).toBe('scheduled');
    expect(submitsByDestination(smsc).get(planned[2].to_number)).toBeUndefined();
  });

  it('never both cancels and sends a message when cancellation races dispatch', async () => {
    const at = new Date(Date.now() + 1500);
    const count = 200;
    const { send_id } = await send(
      Array.from({ length: count }, (_, i) => ({ to: `0412${String(200001 + i).padStart(6, '0')}`, message: 'race', sender: 'Brand', scheduled_for: at.toISOString() })),
    );
    const balanceAfterSend = (await t.api.get('/v1/account', { auth: acct.auth })).body.credit_balance;
    // Cancel while dispatch has messages claimed and still out at the SMSC (answering slowly for this),
    // so cancel and dispatch meet on one send: each must take only what the other has not.
    smsc.setRespDelay(50);
    let cancelled: number;
    try {
      // Claimed and not yet recorded: in a batch a dispatcher holds, with no part until their outcome is recorded.
      const claimedOut = async () =>
        Number(
          (
            await t.app.get(DataSource).query(
              `SELECT count(*)::int AS n FROM dispatch_batches b JOIN messages m ON m.send_id = b.send_id
                   AND (m.dispatch_at, m.seq) > (b.after_at, b.after_seq) AND (m.dispatch_at, m.seq) <= (b.through_at, b.through_seq)
                  WHERE b.send_id = $1 AND m.status = 'scheduled' AND NOT EXISTS (SELECT 1 FROM message_parts p WHERE p.message_id = m.id)`,
              [send_id],
            )
          )[0].n,
        );
      await until(async () => (await claimedOut()) > 0, 'dispatch to have claimed messages out at the SMSC', 10_000, 10);
      const cancel = await t.api.delete('/v1/messages', { auth: acct.auth, body: { send_id } });
      expect(cancel.status).toBe(200);
      cancelled = cancel.body.cancelled_count as number;
      await until(
        async () => {
          const c = await statusCounts(t, send_id);
          return (c.cancelled ?? 0) + (c.delivered ?? 0) === count;
        },
        'every message cancelled or delivered',
        20_000,
      );
    } finally {
      smsc.setRespDelay(0);
    }
    expect(cancelled).toBeGreaterThan(0);
    expect(cancelled).toBeLessThan(count);
    const counts = await statusCounts(t, send_id);
    expect(counts.cancelled ?? 0).toBe(cancelled);
    const [{ cancelled_with_parts }] = await t.app
      .get(DataSource)
      .query(
        `SELECT count(*)::int AS cancelled_with_parts FROM messages m WHERE m.send_id = $1 AND m.status = 'cancelled' AND EXISTS (SELECT 1 FROM message_parts p WHERE p.message_id = m.id)`,
        [send_id],
      );
    expect(cancelled_with_parts).toBe(0);
    const destinations = submitsByDestination(smsc);
    const rows: Array<{ to_number: string; status: string }> = await t.app.get(DataSource).query('SELECT to_number, status FROM messages WHERE send_id = $1', [send_id]);
    for (const row of rows) expect([row.status, destinations.get(row.to_number) ?? 0]).toEqual([row.status, row.status === 'cancelled' ? 0 : 1]);
    expect((await t.api.get('/v1/account', { auth: acct.auth })).body.credit_balance).toBe(balanceAfterSend + cancelled);
  });

  it('reconnects after the SMSC drops the connection mid-stream and loses no message', async () => {
    const count = 300;
    const { send_id } = await send(Array.from({ length: count }, (_, i) => ({ to: `0412${String(300001 + i).padStart(6, '0')}`, message: 'steady', sender: 'Brand' })));
    // Numbers 0412300001.. (none ends in 000, so every one is delivered).
    await until(() => smsc.submits.filter((s) => s.destinationAddr.startsWith('614123')).length >= 50, 'the stream to start');
    smsc.dropConnections();
    await until(async () => (await statusCounts(t, send_id)).delivered === count, 'every message delivered after the drop', 30_000);
    const destinations = submitsByDestination(smsc);
    const duplicates = [...destinations].filter(([to, n]) => to.startsWith('614123') && n > 1).length;
    for (let i = 0; i < count; i++) expect(destinations.get(`61412${String(300001 + i).padStart(6, '0')}`)).toBeGreaterThanOrEqual(1);
    // SMPP is at-least-once across a lost connection: only parts whose submit_sm_resp was lost with it
    // can be sent twice, at most binds × window of them.
    expect(duplicates).toBeLessThanOrEqual(2 * 10);
  });

  it('recovers every due message after Redis loses its queue (keys flushed mid-run)', async () => {
    const at = new Date(Date.now() + 1500);
    const { send_id } = await send(
      Array.from({ length: 40 }, (_, i) => ({ to: `0412${String(400001 + i).padStart(6, '0')}`, message: 'survive', sender: 'Brand', scheduled_for: at.toISOString() })),
    );
    await deleteRedisKeys(process.env.REDIS_URL!, t.config.redisPrefix);
    await until(async () => (await statusCounts(t, send_id)).delivered === 40, 'the sweeper to recover the send', 20_000);
    for (let i = 0; i < 40; i++) expect(submitsByDestination(smsc).get(`61412${String(400001 + i).padStart(6, '0')}`)).toBe(1);
  });

  it('stores a mobile-originated message from the SMSC, correlated with the last message to that mobile', async () => {
    const { results } = await send([{ to: '0412100601', message: 'Reply to me', sender: '61400000001', custom_ref: 'ask' }]);
    await until(async () => (await statusOf(results[0].message_id)) === 'delivered', 'delivery');
    await smsc.injectMo({ from: '61412100601', to: '61400000001', text: 'Yes please' });
    await until(async () => (await t.api.get('/v1/inbound', { auth: acct.auth })).body.total === 1, 'the reply');
    const inbound = (await t.api.get('/v1/inbound', { auth: acct.auth })).body.results[0];
    expect(inbound).toEqual({
      message_id: expect.any(String),
      from: '61412100601',
      to: '61400000001',
      message: 'Yes please',
      received_at: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
      type: 'inbound',
      original_message_id: results[0].message_id,
      original_custom_ref: 'ask',
    });
  });
});
