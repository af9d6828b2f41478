import { performance } from 'node:perf_hooks';

/** Stop handing a batch over once this share of the claim timeout has passed without proof it is still ours. */
const SAFE_SHARE = 0.75;

/**
 * Whether this process may still hand a batch's messages to a carrier. The sweeper takes a batch back
 * once it was claimed longer ago than the claim timeout and no lease renewed within the timeout lists it.
 * The process knows when it listed the batch (before claiming it) and when it sent the last lease
 * renewal PostgreSQL confirmed (the heartbeat is written after that); both are at or before what the
 * sweeper compares, so handing over stops a quarter of the timeout before the batch can be taken back.
 * Without this, a worker whose renewals fail (PostgreSQL cut, then back) kept sending a batch that
 * another worker was already sending again.
 */
export class LeaseFence {
  private readonly safeMs: number;
  private confirmedSentAt = Number.NEGATIVE_INFINITY;
  /**
   * Batches listed at or before this went unprotected during a gap between confirmed renewals and may
   * have been taken back: a later renewal, though it lists them, does not make them this process's again.
   */
  private lostUpTo = Number.NEGATIVE_INFINITY;

  constructor(
    claimTimeoutMs: number,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.safeMs = claimTimeoutMs * SAFE_SHARE;
  }

  /** A renewal is being sent now; call the answer once PostgreSQL confirmed it. */
  renewalSent(): () => void {
    const sentAt = this.now();
    return () => {
      if (sentAt <= this.confirmedSentAt) return;
      if (sentAt - this.confirmedSentAt >= this.safeMs) this.lostUpTo = Math.max(this.lostUpTo, sentAt - this.safeMs);
      this.confirmedSentAt = sentAt;
    };
  }

  /** A mark for a batch listed (added to the lease's batches) now. */
  listed(): number {
    return this.now();
  }

  /** The batch listed at `listedAt` is still certainly this process's, and has been all along. */
  mayHandOver(listedAt: number): boolean {
    return listedAt > this.lostUpTo && this.now() - Math.max(listedAt, this.confirmedSentAt) < this.safeMs;
  }
}
