import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { Slots } from '../common/batching/slots';

/** Where the leases live (WebhookDeliveryRepository). */
export interface WebhookLeaseStore {
  /** Extends this holder's leases of these events; returns the ids that are still its own. */
  renewLeases(holder: string, eventIds: number[], leaseMs: number): Promise<number[]>;
}

/**
 * Start an attempt only while at least this share of the lease is left since it was last confirmed: an
 * attempt lasts at most a quarter of the lease (the timeout), and the renewals keep it alive until its
 * outcome is recorded, so a quarter is left for a renewal to be late.
 */
const START_WITHIN_SHARE = 0.5;

/**
 * The leases of the webhook events this deliverer holds, from claim until their outcome is recorded.
 * An event queued behind a slow receiver, or waiting for its group commit, stays leased because every
 * quarter of the lease the holder renews all it holds; the claim never takes back what this process
 * holds; and an attempt starts only while the lease is certainly this holder's. A holder paused past its
 * lease (a starved event loop) loses the events another deliverer claims meanwhile: its renewals no longer
 * confirm them, it starts no attempt of them, and its late outcomes are not recorded (the repository
 * records an outcome only for its lease holder and the attempt number it claimed).
 */
export class WebhookLeases {
  readonly holder = randomUUID();
  /** Event id → when (local monotonic ms) a claim or renewal that PostgreSQL confirmed was sent. */
  private readonly held = new Map<number, number>();
  private timer?: NodeJS.Timeout;
  private renewing = false;
  /** One renewal or outcome recording at a time (exclusive). */
  private readonly turn = new Slots(1);

  constructor(
    private readonly store: WebhookLeaseStore,
    readonly leaseMs: number,
    private readonly warn: (msg: string, meta: Record<string, unknown>) => void,
    readonly now: () => number = () => performance.now(),
  ) {}

  /** The events this holder has out. */
  heldIds(): number[] {
    return [...this.held.keys()];
  }

  /**
   * The held events a claim must name to leave them alone: those last confirmed half a lease ago or more
   * (or lost), whose lease may have run out in PostgreSQL. Every other held event is still leased there
   * (its lease was set from a moment after the confirmation's statement was sent), so the claim's own
   * `locked_until` test already skips it, and a claim no longer sends the ids of every delivery in flight.
   */
  mayHaveLapsed(): number[] {
    const since = this.now() - this.leaseMs * START_WITHIN_SHARE;
    const ids: number[] = [];
    for (const [id, confirmedAt] of this.held) if (confirmedAt <= since) ids.push(id);
    return ids;
  }

  /** These events were claimed by a statement sent at `sentAt` (this.now()). */
  claimed(eventIds: number[], sentAt: number): void {
    for (const id of eventIds) this.held.set(id, sentAt);
    if (this.held.size > 0 && !this.timer) {
      this.timer = setInterval(() => this.renew(), Math.max(10, Math.floor(this.leaseMs / 4)));
      this.timer.unref();
    }
  }

  /** An attempt of this event may start now: its lease is this holder's with room for the attempt. */
  mayAttempt(eventId: number): boolean {
    const confirmedAt = this.held.get(eventId);
    return confirmedAt !== undefined && this.now() - confirmedAt < this.leaseMs * START_WITHIN_SHARE;
  }

  /** The events' outcomes are recorded (or given up): their leases are no longer renewed. */
  release(eventIds: number[]): void {
    for (const id of eventIds) this.held.delete(id);
    if (this.held.size === 0) this.stop();
  }

  /**
   * Runs `work` (recording outcomes) once the renewal or other work running has settled; a renewal due
   * meanwhile waits for it. Renewals and outcomes update the same events: one at a time, neither ever waits
   * for the other's row locks, so they cannot deadlock, whatever order their statements lock rows in.
   */
  exclusive<T>(work: () => Promise<T>): Promise<T> {
    return this.turn.run(work);
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /**
   * One renewal at a time, taking its turn with outcomes (exclusive); one that hangs or waits skips the
   * ticks meanwhile, and the events' attempts stop starting.
   */
  private renew(): void {
    if (this.renewing || this.held.size === 0) return;
    this.renewing = true;
    let sentAt = 0;
    let ids: number[] = [];
    this.exclusive(() => {
      sentAt = this.now();
      ids = this.heldIds();
      return this.store.renewLeases(this.holder, ids, this.leaseMs);
    })
      .then((renewed) => {
        const mine = new Set(renewed);
        for (const id of ids) {
          if (!this.held.has(id)) continue;
          // Not renewed: another deliverer claimed it after this lease ran out. It never becomes this holder's again.
          const confirmedAt = this.held.get(id)!;
          this.held.set(id, mine.has(id) && confirmedAt > Number.NEGATIVE_INFINITY ? Math.max(confirmedAt, sentAt) : Number.NEGATIVE_INFINITY);
        }
      })
      .catch((err: Error) => this.warn('webhook leases not renewed', { err: err.message }))
      .finally(() => (this.renewing = false));
  }
}
