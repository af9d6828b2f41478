/** The SMPP carrier under SMSC trouble: throttling, dropped and hung connections, windows, shutdown. */
import { SmppCarrier } from '../../../../src/delivery/worker/carriers/smpp/smpp-carrier';
import { message, startHarness, waitFor } from './smpp-harness';
import type { Harness } from './smpp-harness';

describe(SmppCarrier.name, () => {
  let h: Harness;
  afterEach(async () => {
    await h.close();
  });

  it('re-sends throttled parts until accepted and counts each throttle', async () => {
    h = await startHarness({ window: 5 });
    h.simulator.throttleNext(3);
    const results = await h.carrier.submit(Array.from({ length: 10 }, () => message()));
    expect(results.flatMap((r) => r.parts).every((p) => typeof p.smscId === 'string' && p.error === undefined)).toBe(true);
    expect(h.carrier.state()).toMatchObject({ throttled: 3, submitted: 10 });
    expect(h.simulator.counters).toMatchObject({ throttled: 3, submits: 10 });
  });

  it('reconnects after the SMSC drops every connection mid-stream and gives every message a result', async () => {
    h = await startHarness({ binds: 2, window: 10 }, { respDelayMs: 2 });
    const messages = Array.from({ length: 200 }, (_, i) => message({ text: `Message number ${i}` }));
    const pending = h.carrier.submit(messages);
    await waitFor('50 accepted', () => h.simulator.counters.submits >= 50);
    h.simulator.dropConnections();
    const results = await pending;

    const parts = results.flatMap((r) => r.parts);
    expect(parts).toHaveLength(200);
    expect(parts.every((p) => typeof p.smscId === 'string' && p.error === undefined)).toBe(true);
    expect(h.carrier.state().reconnects).toBeGreaterThanOrEqual(2);
    const accepted = h.simulator.submits.filter((r) => r.smscId !== null);
    const seen = new Set(accepted.map((r) => r.text));
    expect(messages.every((m) => seen.has(m.text))).toBe(true);
    // Every result id is one the simulator issued for that very message.
    const textById = new Map(accepted.map((r) => [r.smscId, r.text]));
    expect(results.every((r, i) => textById.get(r.parts[0].smscId) === messages[i].text)).toBe(true);
    if (process.env.SMPP_TEST_VERBOSE) {
      process.stdout.write(`drop test: ${accepted.length} accepted submits for 200 messages (${accepted.length - 200} duplicates)\n`);
    }
  });

  it('drops a session whose submit_sm_resp never comes and re-sends the part on a new bind', async () => {
    h = await startHarness({ submitTimeoutMs: 150 });
    await h.carrier.start();
    h.simulator.ignoreSubmits(true);
    const pending = h.carrier.submit([message({ text: 'lost resp' })]);
    await waitFor('the part to arrive', () => h.simulator.submits.length === 1);
    h.simulator.ignoreSubmits(false);
    const [result] = await pending;
    expect(result.parts[0].smscId).toBe(h.simulator.submits[1].smscId);
    expect(h.simulator.submits.map((r) => r.text)).toEqual(['lost resp', 'lost resp']);
    expect(h.carrier.state().reconnects).toBe(1);
  });

  it('never has more than `window` submit_sm unanswered on one bind, and fills the window', async () => {
    h = await startHarness({ binds: 2, window: 4 }, { respDelayMs: 20 });
    await h.carrier.start();
    await waitFor('2 binds', () => h.carrier.state().bindsUp === 2);
    const results = await h.carrier.submit(Array.from({ length: 60 }, () => message()));
    expect(results).toHaveLength(60);
    expect(h.simulator.maxUnansweredPerSession()).toBe(4);
    expect(h.simulator.sessionStats().every((s) => s.submits > 0)).toBe(true);
  });

  it('holds parts back under a per-bind TPS cap and still sends them all', async () => {
    h = await startHarness({ binds: 2, tpsPerBind: 200 });
    await h.carrier.start();
    await waitFor('2 binds', () => h.carrier.state().bindsUp === 2);
    const results = await h.carrier.submit(Array.from({ length: 60 }, () => message()));
    expect(results.every((r) => typeof r.parts[0].smscId === 'string')).toBe(true);
    expect(h.simulator.counters.submits).toBe(60);
  });

  it('keeps the link alive with enquire_link when the SMSC is quiet', async () => {
    h = await startHarness({ enquireLinkMs: 30 });
    await h.carrier.start();
    await waitFor('an enquire_link', () => h.simulator.counters.enquireLinks >= 2);
    expect(h.carrier.state().bindsUp).toBe(1);
  });

  it('on close, fails parts that could not be sent because no bind is up', async () => {
    h = await startHarness();
    await h.simulator.stop();
    const pending = h.carrier.submit([message()]);
    await h.carrier.close();
    const [result] = await pending;
    expect(result.parts[0]).toEqual({ carrierId: 0, partNumber: 1, totalParts: 1, smscId: null, error: 'carrier closed before the part was submitted' });
    await expect(h.carrier.submit([message()])).rejects.toThrow('closed');
  });

  it('on close, waits for unanswered submits and then unbinds', async () => {
    h = await startHarness({}, { respDelayMs: 30 });
    await h.carrier.start();
    const pending = h.carrier.submit([message(), message()]);
    await waitFor('both parts to arrive', () => h.simulator.submits.length === 2);
    await h.carrier.close();
    const results = await pending;
    expect(results.every((r) => typeof r.parts[0].smscId === 'string')).toBe(true);
    expect(h.carrier.state().bindsUp).toBe(0);
  });
});
