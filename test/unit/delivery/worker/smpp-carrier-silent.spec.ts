/**
 * An SMSC that stops answering (the simulator's "stop answering": the TCP connection stays, nothing is
 * answered, enquire_link included) is found by enquire_link and its response timeout, not by the submit
 * timeout: here the submit timeout is longer than the test may run, so only the enquire_link can end it.
 */
import { CarrierGroup } from '../../../../src/delivery/worker/carriers/carrier-group';
import { CarrierHealthBoard } from '../../../../src/delivery/worker/carriers/carrier-health-board';
import { SmppCarrier } from '../../../../src/delivery/worker/carriers/smpp/smpp-carrier';
import { SmscSimulator } from '../../../../src/smsc-sim/smsc-simulator';
import { message, PASSWORD, startHarness, SYSTEM_ID, waitFor } from './smpp-harness';
import type { Harness } from './smpp-harness';

const NEVER_IN_THIS_TEST = 120_000;

describe(`${SmppCarrier.name}: an SMSC that stops answering`, () => {
  let h: Harness;
  afterEach(async () => {
    await h?.close();
  });

  it('drops the bind when its enquire_link goes unanswered, then re-sends the part on a new bind', async () => {
    const warnings: Array<Record<string, unknown>> = [];
    h = await startHarness({
      submitTimeoutMs: NEVER_IN_THIS_TEST,
      enquireLinkMs: NEVER_IN_THIS_TEST,
      enquireLinkTimeoutMs: 200,
      logger: { info: () => undefined, warn: (msg, meta) => void warnings.push({ msg, ...meta }), error: () => undefined },
    });
    await h.carrier.start();
    h.simulator.ignoreSubmits(true);
    const pending = h.carrier.submit([message({ text: 'to a silent SMSC' })]);
    await waitFor('the bind to drop', () => warnings.some((w) => w.msg === 'smpp bind down'), 20_000);
    expect(warnings.find((w) => w.msg === 'smpp bind down')).toMatchObject({ reason: expect.stringContaining('enquire_link_resp timed out'), unanswered: 1 });
    expect(h.simulator.counters.enquireLinks).toBeGreaterThanOrEqual(1);
    h.simulator.ignoreSubmits(false);
    const [result] = await pending;
    expect(result.parts[0].smscId).toBe(h.simulator.submits[h.simulator.submits.length - 1].smscId);
    expect(h.simulator.submits.map((r) => r.text)).toEqual(['to a silent SMSC', 'to a silent SMSC']);
  });

  it("moves a route's traffic to its other carrier when one stops answering: every message accepted there, the silent one down", async () => {
    h = await startHarness({ submitTimeoutMs: NEVER_IN_THIS_TEST, enquireLinkMs: NEVER_IN_THIS_TEST, enquireLinkTimeoutMs: 200, id: 1, name: 'silent', window: 5 });
    const other = new SmscSimulator({ systemId: SYSTEM_ID, password: PASSWORD, receiptDelayMs: 60_000 });
    const otherPort = await other.start();
    const healthy = new SmppCarrier({
      id: 2,
      name: 'healthy',
      host: '127.0.0.1',
      port: otherPort,
      systemId: SYSTEM_ID,
      password: PASSWORD,
      tls: false,
      binds: 1,
      window: 10,
      tpsPerBind: 0,
      enquireLinkMs: NEVER_IN_THIS_TEST,
      enquireLinkTimeoutMs: 200,
      reconnectBaseMs: 20,
      reconnectMaxMs: 200,
      submitTimeoutMs: NEVER_IN_THIS_TEST,
    });
    try {
      const board = new CarrierHealthBoard({ downErrorShare: 0.5, errorWindowMs: 10_000, minSubmits: 20, holdDownMs: 30_000, holdDownMaxMs: 60_000 });
      const group = new CarrierGroup(
        [
          { carrier: h.carrier, weight: 1, priority: 0 },
          { carrier: healthy, weight: 1, priority: 0 },
        ],
        board,
        { retryAttempts: 3, pollMs: 5 },
      );
      await Promise.all([h.carrier.start(), healthy.start()]);
      h.simulator.ignoreSubmits(true);
      const results = await group.submit(
        Array.from({ length: 20 }, (_, i) => message({ text: `campaign ${i}` })),
        { mayHandOver: () => true },
      );
      const parts = results.flatMap((r) => r.parts);
      expect(parts.every((p) => typeof p.smscId === 'string' && p.carrierId === 2)).toBe(true);
      expect(new Set(other.submits.filter((r) => r.smscId).map((r) => r.text)).size).toBe(20);
      // Half went to the silent one (weights 1:1): its window of 5 went out and came back in doubt (the
      // bound), the other 5 it never sent and gave back as they were.
      expect(h.simulator.submits).toHaveLength(5);
      expect(board.isUp(h.carrier)).toBe(false);
    } finally {
      await healthy.close();
      await other.stop();
    }
  });
});
