/** A carrier retired by carrier:update, disable or remove: it gives back what it has not had answered, and fails nothing for it. */
import { SmppCarrier } from '../../../../src/delivery/worker/carriers/smpp/smpp-carrier';
import { STATUS } from '../../../../src/smpp/commands';
import { message, startHarness, waitFor } from './smpp-harness';
import type { Harness } from './smpp-harness';

describe(`${SmppCarrier.name}.retire`, () => {
  let h: Harness;
  afterEach(async () => {
    await h.close();
  });

  it('gives back the parts it holds unsent while its binds are down as temporary, where close() fails them', async () => {
    h = await startHarness({ reconnectBaseMs: 10_000, reconnectMaxMs: 10_000 });
    h.simulator.faults.refuseBinds(STATUS.ESME_RBINDFAIL);
    const queued = h.carrier.submit([message({ text: 'x'.repeat(300) })]); // two parts, waiting for a bind
    await waitFor('the bind to be refused', () => h.simulator.counters.bindsRefused >= 1);
    await h.carrier.retire();
    const [result] = await queued;
    expect(result.parts.map((p) => [p.partNumber, p.smscId, p.outcome])).toEqual([
      [1, null, 'temporary'],
      [2, null, 'temporary'],
    ]);
    expect(h.carrier.retired()).toBe(true);
    // Anything handed to it after it retired comes straight back too.
    const [late] = await h.carrier.submit([message()]);
    expect(late.parts[0]).toMatchObject({ smscId: null, outcome: 'temporary' });
  });

  it('(close, for contrast, fails the same parts)', async () => {
    h = await startHarness({ reconnectBaseMs: 10_000, reconnectMaxMs: 10_000 });
    h.simulator.faults.refuseBinds(STATUS.ESME_RBINDFAIL);
    const queued = h.carrier.submit([message()]);
    await waitFor('the bind to be refused', () => h.simulator.counters.bindsRefused >= 1);
    await h.carrier.close();
    const [result] = await queued;
    expect(result.parts[0]).toMatchObject({ smscId: null, error: 'carrier closed before the part was submitted' });
    expect(result.parts[0].outcome).toBeUndefined();
  });

  it('waits for the answers to the parts it sent, and gives back as in doubt those still unanswered at its deadline', async () => {
    h = await startHarness({ submitTimeoutMs: 300 });
    await h.carrier.start();
    const answered = h.carrier.submit([message({ text: 'answered' })]);
    await answered;
    h.simulator.ignoreSubmits(true);
    const unanswered = h.carrier.submit([message({ text: 'no answer' })]);
    await waitFor('the part to reach the SMSC', () => h.simulator.submits.length === 2);
    await h.carrier.retire();
    const [result] = await unanswered;
    expect(result.parts[0]).toMatchObject({ smscId: null, outcome: 'in-doubt' });
  });
});
