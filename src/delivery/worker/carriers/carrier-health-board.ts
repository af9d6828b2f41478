/**
 * The health of every carrier this worker process sends through (one board per process, shared by every
 * CarrierGroup: a carrier is one SMSC connection whichever routes use it).
 *
 * A carrier is down when
 * - none of its binds is up (read from the carrier at each routing decision, so traffic moves at once), or
 * - more than `downErrorShare` of its recent answered submits (a sliding window of `errorWindowMs`, at
 *   least `minSubmits` of them) were temporary failures: throttled, queue full, system error, or left
 *   in doubt by a lost connection (which is how a submit timeout shows).
 * It is up again only once it has looked healthy for its hold-down, counted from the last sign of
 * trouble. A carrier that goes down again within its hold-down of coming back gets twice the hold-down
 * (up to `holdDownMaxMs`), so an SMSC that fails every few seconds does not pull traffic back and forth;
 * one that stays up longer than its hold-down gets the base hold-down again.
 */
import { performance } from 'node:perf_hooks';
import type { Carrier, PartOutcomeKind } from './carrier';

export interface CarrierHealthSettings {
  /** Share (0-1] of temporary failures among recent submits above which a carrier is down. */
  downErrorShare: number;
  errorWindowMs: number;
  /** Fewer answered submits than this in the window never make a carrier down (a few throttles are normal). */
  minSubmits: number;
  holdDownMs: number;
  holdDownMaxMs: number;
}

export type CarrierHealthState = 'up' | 'down';
export type DownReason = 'binds' | 'errors';

/** What /health and carrier:status show of one carrier. */
export interface CarrierHealthView {
  id: number;
  name: string;
  state: CarrierHealthState;
  reason: DownReason | null;
  bindsUp: number;
  bindsConfigured: number;
  /** Temporary failures and all answered submits in the current window. */
  recentErrors: number;
  recentSubmits: number;
  /** Milliseconds until a down carrier may take traffic again if nothing else goes wrong (0 when up). */
  upInMs: number;
}

const BUCKETS = 10;

interface Health {
  carrier: Carrier;
  /** Counts per slice of the window (errorWindowMs / BUCKETS each), oldest overwritten. */
  totals: number[];
  errors: number[];
  /** The slice number (time / slice length) each bucket holds. */
  slices: number[];
  reason: DownReason | null;
  /** When a down carrier is up again (pushed later by every new sign of trouble). */
  upAt: number;
  holdDownMs: number;
  /** When it last came back up (for the flapping rule). */
  cameUpAt: number;
  /** Binds seen up at least once: a carrier still making its first binds has no hold-down to serve. */
  seenUp: boolean;
  /** Down for its binds and none seen back yet: the hold-down starts when one is. */
  awaitingBinds: boolean;
}

export class CarrierHealthBoard {
  private readonly health = new Map<number, Health>();
  private readonly sliceMs: number;
  private waitingMessagesCount = 0;
  private waitingPartsCount = 0;

  constructor(
    private readonly settings: CarrierHealthSettings,
    private readonly now: () => number = () => performance.now(),
  ) {
    if (!(settings.downErrorShare > 0 && settings.downErrorShare <= 1)) throw new RangeError('downErrorShare must be in (0, 1]');
    this.sliceMs = Math.max(1, settings.errorWindowMs / BUCKETS);
  }

  /** Starts tracking a carrier (idempotent: the same carrier in several groups has one record). */
  register(carrier: Carrier): void {
    const known = this.health.get(carrier.id);
    if (known) {
      known.carrier = carrier;
      return;
    }
    this.health.set(carrier.id, {
      carrier,
      totals: new Array<number>(BUCKETS).fill(0),
      errors: new Array<number>(BUCKETS).fill(0),
      slices: new Array<number>(BUCKETS).fill(-1),
      reason: null,
      upAt: 0,
      holdDownMs: this.settings.holdDownMs,
      cameUpAt: Number.NEGATIVE_INFINITY,
      seenUp: false,
      awaitingBinds: false,
    });
  }

  /** Stops tracking a carrier that was removed. */
  forget(carrierId: number): void {
    this.health.delete(carrierId);
  }

  /** One part's answer from a carrier. Accepted and permanent refusals are answers of a working SMSC. */
  record(carrierId: number, outcome: PartOutcomeKind): void {
    const h = this.health.get(carrierId);
    if (!h || outcome === 'withheld') return;
    const now = this.now();
    const slice = Math.floor(now / this.sliceMs);
    const b = slice % BUCKETS;
    if (h.slices[b] !== slice) {
      h.slices[b] = slice;
      h.totals[b] = 0;
      h.errors[b] = 0;
    }
    h.totals[b]++;
    if (outcome !== 'temporary' && outcome !== 'in-doubt') return;
    h.errors[b]++;
    const { total, errors } = this.windowCounts(h, slice);
    if (total >= this.settings.minSubmits && errors > total * this.settings.downErrorShare) this.markDown(h, 'errors', now);
  }

  /** Whether the carrier should take traffic now (it is tracked, its binds are up, and it is past any hold-down). */
  isUp(carrier: Carrier): boolean {
    const h = this.health.get(carrier.id);
    if (!h) return false;
    return this.evaluate(h, this.now()) === 'up';
  }

  /** Whether some bind of the carrier is up: the last resort when every member of a group is down. */
  isReachable(carrier: Carrier): boolean {
    const s = carrier.state();
    return s.bindsConfigured === 0 || s.bindsUp > 0;
  }

  /** Messages (and their parts) held by groups because no member could take them; for /health and the backlog. */
  waiting(): { messages: number; parts: number } {
    return { messages: this.waitingMessagesCount, parts: this.waitingPartsCount };
  }

  /** A group holds (positive) or released (negative) messages waiting for a member. */
  noteWaiting(messages: number, parts: number): void {
    this.waitingMessagesCount += messages;
    this.waitingPartsCount += parts;
  }

  view(): CarrierHealthView[] {
    const now = this.now();
    return [...this.health.values()].map((h) => {
      const state = this.evaluate(h, now);
      const s = h.carrier.state();
      const { total, errors } = this.windowCounts(h, Math.floor(now / this.sliceMs));
      return {
        id: h.carrier.id,
        name: h.carrier.name,
        state,
        reason: state === 'down' ? h.reason : null,
        bindsUp: s.bindsUp,
        bindsConfigured: s.bindsConfigured,
        recentErrors: errors,
        recentSubmits: total,
        upInMs: state === 'down' ? Math.max(0, Math.ceil(h.upAt - now)) : 0,
      };
    });
  }

  private evaluate(h: Health, now: number): CarrierHealthState {
    if (!this.isReachable(h.carrier)) {
      // While the binds are down the hold-down has not started: it counts from their return.
      if (h.seenUp) this.markDown(h, 'binds', now);
      return 'down';
    }
    h.seenUp = true;
    if (h.awaitingBinds) {
      h.awaitingBinds = false;
      h.upAt = Math.max(h.upAt, now + h.holdDownMs);
    }
    if (h.reason === null) return 'up';
    if (now < h.upAt) return 'down';
    h.reason = null;
    h.cameUpAt = now;
    this.clearWindow(h);
    return 'up';
  }

  private markDown(h: Health, reason: DownReason, now: number): void {
    if (h.reason === null) {
      // Down again within its hold-down of coming back: flapping, so the next hold-down is longer.
      h.holdDownMs = now - h.cameUpAt < h.holdDownMs ? Math.min(this.settings.holdDownMaxMs, h.holdDownMs * 2) : this.settings.holdDownMs;
      h.reason = reason;
    } else if (reason === 'binds') {
      h.reason = reason;
    }
    h.upAt = Math.max(h.upAt, now + h.holdDownMs);
    if (reason === 'errors') this.clearWindow(h);
    else h.awaitingBinds = true;
  }

  private clearWindow(h: Health): void {
    h.totals.fill(0);
    h.errors.fill(0);
  }

  private windowCounts(h: Health, slice: number): { total: number; errors: number } {
    let total = 0;
    let errors = 0;
    for (let i = 0; i < BUCKETS; i++) {
      if (slice - h.slices[i] >= BUCKETS) continue;
      total += h.totals[i];
      errors += h.errors[i];
    }
    return { total, errors };
  }
}

/** The board's settings from the CARRIER_* settings. */
export function carrierHealthSettings(config: {
  carrierDownErrorPercent: number;
  carrierErrorWindowMs: number;
  carrierErrorMinSubmits: number;
  carrierHoldDownMs: number;
  carrierHoldDownMaxMs: number;
}): CarrierHealthSettings {
  return {
    downErrorShare: config.carrierDownErrorPercent / 100,
    errorWindowMs: config.carrierErrorWindowMs,
    minSubmits: config.carrierErrorMinSubmits,
    holdDownMs: config.carrierHoldDownMs,
    holdDownMaxMs: Math.max(config.carrierHoldDownMs, config.carrierHoldDownMaxMs),
  };
}
