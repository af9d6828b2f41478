import { randomUUID } from 'node:crypto';
import { LeaseFence } from './lease-fence';

/** Where the lease row lives (LeasesRepository). */
export interface LeaseStore {
  renewLease(dispatcherId: string, activeBatches: string[]): Promise<void>;
  dropLease(dispatcherId: string): Promise<void>;
}

/** A batch this process listed in its lease before claiming it. */
export interface ListedBatch {
  /** The batch is still certainly this process's: its messages may be handed to a carrier. */
  mayHandOver(): boolean;
  /** The batch is done (recorded, or stopped): the next renewal no longer lists it. */
  unlist(): void;
}

/**
 * This dispatcher process's lease: one row listing the batches it is working on, renewed every quarter of
 * the claim timeout, so the sweeper takes back only a dead dispatcher's batches, never a slow live one's.
 * With its fence, it also says when a batch may no longer be handed to a carrier (renewals have failed so
 * long that the sweeper may have taken it back).
 */
export class DispatcherLease {
  readonly dispatcherId = randomUUID();
  private readonly batches = new Set<string>();
  private readonly fence: LeaseFence;
  private timer?: NodeJS.Timeout;
  private renewing = false;

  constructor(
    private readonly store: LeaseStore,
    private readonly claimTimeoutMs: number,
    private readonly warn: (msg: string, meta: Record<string, unknown>) => void,
    now?: () => number,
  ) {
    this.fence = new LeaseFence(claimTimeoutMs, now);
  }

  start(): void {
    this.renew();
    this.timer = setInterval(() => this.renew(), Math.max(250, Math.floor(this.claimTimeoutMs / 4)));
    this.timer.unref();
  }

  /** Gives the lease up (shutdown, once every batch has ended). */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.store.dropLease(this.dispatcherId).catch(() => undefined);
  }

  /** Lists a batch before it is claimed: a claim is younger than the timeout until the next renewal lists it. */
  list(batchId: string): ListedBatch {
    this.batches.add(batchId);
    const listedAt = this.fence.listed();
    return { mayHandOver: () => this.fence.mayHandOver(listedAt), unlist: () => this.batches.delete(batchId) };
  }

  /**
   * One renewal at a time: two in flight on different connections could reach PostgreSQL out of order,
   * and the older one would list fewer batches under a fresh heartbeat. A renewal that hangs skips the
   * ticks meanwhile, and the fence stops the batches once that has lasted too long.
   */
  private renew(): void {
    if (this.renewing) return;
    this.renewing = true;
    const confirmed = this.fence.renewalSent();
    this.store
      .renewLease(this.dispatcherId, [...this.batches])
      .then(confirmed)
      .catch((err: Error) => this.warn('dispatcher lease not renewed', { err: err.message }))
      .finally(() => (this.renewing = false));
  }
}
