import type { InflightLimiter, InflightSlot } from '../../../src/common/concurrency/inflight-limiter';

/**
 * In-flight slots per account with a limit, as the Redis limiter keeps them; counts every release call
 * (the real slot ignores a second one, so does this one).
 */
export class FakeInflightLimiter implements Pick<InflightLimiter, 'tryAcquire'> {
  readonly acquisitions: number[] = [];
  releaseCalls = 0;
  private readonly held = new Map<number, number>();

  constructor(private readonly limit: number) {}

  inFlight(accountId: number): number {
    return this.held.get(accountId) ?? 0;
  }

  async tryAcquire(accountId: number): Promise<InflightSlot | null> {
    this.acquisitions.push(accountId);
    if (this.inFlight(accountId) >= this.limit) return null;
    this.held.set(accountId, this.inFlight(accountId) + 1);
    let released = false;
    return {
      release: async () => {
        this.releaseCalls++;
        if (released) return;
        released = true;
        this.held.set(accountId, this.inFlight(accountId) - 1);
      },
    };
  }
}
