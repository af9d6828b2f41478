import { DispatcherLease, type LeaseStore } from '../../../../src/delivery/worker/dispatcher-lease';

/** A lease store that records each renewal and answers it when the test says. */
class FakeLeaseStore implements LeaseStore {
  readonly renewals: Array<{ batches: string[]; answer: (ok: boolean) => void }> = [];
  dropped: string[] = [];

  renewLease(_dispatcherId: string, activeBatches: string[]): Promise<void> {
    return new Promise((resolve, reject) => this.renewals.push({ batches: activeBatches, answer: (ok) => (ok ? resolve() : reject(new Error('database gone'))) }));
  }

  async dropLease(dispatcherId: string): Promise<void> {
    this.dropped.push(dispatcherId);
  }
}

const flush = () => new Promise((resolve) => setImmediate(resolve));

describe(DispatcherLease.name, () => {
  const TIMEOUT = 1000;
  let now = 0;
  let store: FakeLeaseStore;
  let warnings: string[];
  let lease: DispatcherLease;

  beforeEach(() => {
    jest.useFakeTimers({ doNotFake: ['setImmediate'] });
    now = 0;
    store = new FakeLeaseStore();
    warnings = [];
    lease = new DispatcherLease(
      store,
      TIMEOUT,
      (msg) => warnings.push(msg),
      () => now,
    );
  });
  afterEach(() => jest.useRealTimers());

  const answer = async (i: number, ok: boolean) => {
    store.renewals[i].answer(ok);
    await flush();
  };
  const tick = async (ms: number) => {
    now += ms;
    jest.advanceTimersByTime(ms);
    await flush();
  };

  it('renews every quarter of the claim timeout, listing the batches listed and not yet unlisted', async () => {
    lease.start();
    await answer(0, true);
    const a = lease.list('batch-a');
    lease.list('batch-b');
    await tick(250);
    expect(store.renewals[1].batches).toEqual(['batch-a', 'batch-b']);
    await answer(1, true);
    a.unlist();
    await tick(250);
    expect(store.renewals[2].batches).toEqual(['batch-b']);
  });

  it('sends one renewal at a time: a hanging renewal skips the ticks meanwhile', async () => {
    lease.start();
    await tick(250);
    await tick(250);
    expect(store.renewals).toHaveLength(1);
    await answer(0, true);
    await tick(250);
    expect(store.renewals).toHaveLength(2);
  });

  it('lets a batch be handed over while renewals are confirmed, and stops it once they fail for three quarters of the timeout', async () => {
    lease.start();
    await answer(0, true);
    const batch = lease.list('batch-a');
    for (let i = 1; i <= 4; i++) {
      await tick(250);
      await answer(i, true);
      expect(batch.mayHandOver()).toBe(true);
    }
    await tick(250);
    await answer(5, false);
    await tick(250);
    await answer(6, false);
    expect(batch.mayHandOver()).toBe(true);
    await tick(250);
    expect(batch.mayHandOver()).toBe(false);
    expect(warnings).toContain('dispatcher lease not renewed');
  });

  it('gives the lease up on stop and renews no more', async () => {
    lease.start();
    await answer(0, true);
    await lease.stop();
    expect(store.dropped).toEqual([lease.dispatcherId]);
    await tick(1000);
    expect(store.renewals).toHaveLength(1);
  });
});
