import { WebhookLeases, WebhookLeaseStore } from '../../../src/webhooks/webhook-leases';

/** A store whose renewals the test answers by hand. */
class ManualStore implements WebhookLeaseStore {
  readonly calls: Array<{ ids: number[]; answer: (ids: number[]) => void }> = [];
  renewLeases(_holder: string, eventIds: number[]): Promise<number[]> {
    return new Promise((resolve) => this.calls.push({ ids: eventIds, answer: resolve }));
  }
}

describe(WebhookLeases.name, () => {
  let clock = 0;
  let store: ManualStore;
  let leases: WebhookLeases;
  const LEASE = 1000;
  const settle = () => new Promise((r) => setImmediate(r));

  beforeEach(() => {
    jest.useFakeTimers({ doNotFake: ['setImmediate'] });
    clock = 0;
    store = new ManualStore();
    leases = new WebhookLeases(
      store,
      LEASE,
      () => undefined,
      () => clock,
    );
  });
  afterEach(() => {
    leases.stop();
    jest.useRealTimers();
  });

  it('lets an attempt start only within half the lease since it was last confirmed', () => {
    leases.claimed([1], 0);
    clock = 499;
    expect(leases.mayAttempt(1)).toBe(true);
    clock = 500;
    expect(leases.mayAttempt(1)).toBe(false);
    expect(leases.mayAttempt(2)).toBe(false);
  });

  it('names for the claim to leave alone only the events confirmed half a lease ago or more, or lost', async () => {
    leases.claimed([1, 2], 0);
    clock = 300;
    leases.claimed([3], 300);
    expect(leases.mayHaveLapsed()).toEqual([]);
    clock = 500;
    expect(leases.mayHaveLapsed()).toEqual([1, 2]);
    jest.advanceTimersByTime(250);
    store.calls[0].answer([1, 3]);
    await settle();
    // 1 and 3 were confirmed again by the renewal sent at 500; 2 was not: another deliverer has it.
    expect(leases.mayHaveLapsed()).toEqual([2]);
    clock = 999;
    expect(leases.mayHaveLapsed()).toEqual([2]);
    clock = 1000;
    expect(leases.mayHaveLapsed()).toEqual([1, 2, 3]);
  });

  it('renews every quarter of the lease what it holds, and a confirmed renewal extends the attempts’ window', async () => {
    leases.claimed([1, 2], 0);
    clock = 250;
    jest.advanceTimersByTime(250);
    expect(store.calls.map((c) => c.ids)).toEqual([[1, 2]]);
    store.calls[0].answer([1, 2]);
    await settle();
    clock = 700;
    expect(leases.mayAttempt(1)).toBe(true);
  });

  it('never again starts an event a renewal did not confirm (another deliverer holds it now)', async () => {
    leases.claimed([1, 2], 0);
    clock = 250;
    jest.advanceTimersByTime(250);
    store.calls[0].answer([2]);
    await settle();
    expect(leases.mayAttempt(1)).toBe(false);
    expect(leases.mayAttempt(2)).toBe(true);
    clock = 500;
    jest.advanceTimersByTime(250);
    store.calls[1].answer([1, 2]);
    await settle();
    expect(leases.mayAttempt(1)).toBe(false);
  });

  it('sends one renewal at a time, stops renewing what is released, and stops its timer when it holds nothing', async () => {
    leases.claimed([1, 2], 0);
    jest.advanceTimersByTime(750);
    expect(store.calls).toHaveLength(1);
    store.calls[0].answer([1, 2]);
    await settle();
    leases.release([1]);
    jest.advanceTimersByTime(250);
    expect(store.calls[1].ids).toEqual([2]);
    leases.release([2]);
    expect(jest.getTimerCount()).toBe(0);
    expect(leases.heldIds()).toEqual([]);
  });

  it('lets a renewal and outcome recording run only one at a time, each waiting for the one before', async () => {
    let finishRecording!: () => void;
    const recorded = leases.exclusive(() => new Promise<string>((resolve) => (finishRecording = () => resolve('recorded'))));
    leases.claimed([1, 2], 0);
    clock = 250;
    jest.advanceTimersByTime(250);
    await settle();
    // The renewal is due, but waits for the recording running.
    expect(store.calls).toHaveLength(0);
    finishRecording();
    await expect(recorded).resolves.toBe('recorded');
    await settle();
    expect(store.calls.map((c) => c.ids)).toEqual([[1, 2]]);
    // Now the renewal runs: the next recording waits for it, and a recording that fails lets the next one go.
    const order: string[] = [];
    const failing = leases.exclusive(async () => {
      order.push('failing');
      throw new Error('lost connection');
    });
    const next = leases.exclusive(async () => void order.push('next'));
    await settle();
    expect(order).toEqual([]);
    store.calls[0].answer([1, 2]);
    await expect(failing).rejects.toThrow('lost connection');
    await next;
    expect(order).toEqual(['failing', 'next']);
  });

  it('sends a renewal taken after a wait with the events held when it is sent, and confirms from then', async () => {
    let finishRecording!: () => void;
    void leases.exclusive(() => new Promise<void>((resolve) => (finishRecording = resolve)));
    leases.claimed([1, 2, 3], 0);
    clock = 250;
    jest.advanceTimersByTime(250);
    await settle();
    leases.release([2]);
    clock = 400;
    finishRecording();
    await settle();
    expect(store.calls.map((c) => c.ids)).toEqual([[1, 3]]);
    store.calls[0].answer([1, 3]);
    await settle();
    clock = 899;
    expect(leases.mayAttempt(1)).toBe(true);
    clock = 900;
    expect(leases.mayAttempt(1)).toBe(false);
  });
});
