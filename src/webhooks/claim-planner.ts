import { performance } from 'node:perf_hooks';
import type { WebhookKind } from './webhooks.repository';

export interface ClaimLimits {
  /** The most events one claim takes. */
  batch: number;
  /**
   * The fewest a claim takes while deliveries are in flight (claims stay batches, not a statement per few
   * deliveries); also the free places below which a host counts as full.
   */
  minClaim: number;
  /** Deliveries in flight in this process at once (all hosts). */
  maxInFlight: number;
}

/** What the planner reads of the receiving hosts' queues (HostLimiter). */
export interface HostRooms {
  /** What one host holds at once: its connections plus its queue. */
  readonly capacity: number;
  /** Hosts with deliveries running or queued. */
  busyHosts(): Iterable<string>;
  /** Places left for a host: connections plus queue, less what runs and waits (all of them when idle). */
  free(host: string): number;
}

/** Accounts left out of a claim, per kind of event: their URL for that kind is on a full host. */
export interface ClaimExclusions {
  status: number[];
  inbound: number[];
}

export interface ClaimPlan {
  /** Events to claim; 0 means wait for a finished delivery, a wake-up, or `retryInMs`. */
  size: number;
  excluding: ClaimExclusions;
  /** The full hosts the exclusions stand for. */
  fullHosts: string[];
  /** With size 0: look again after this long even if nothing else happens. */
  retryInMs?: number;
}

/**
 * A claim that left full hosts out and came back short waits at least this many times its own duration
 * before the next such claim: it reads past every due event of the left-out accounts, so wake-ups during a
 * slow receiver's large backlog cost PostgreSQL at most about a tenth of one core.
 */
const EXCLUDING_CLAIM_SPACING = 10;
/**
 * A short claim's word that nothing else is due holds this long at most: events stored or falling due
 * without a wake-up (a lost wake-up job, another process's put-back) are claimed by then. It is the sweep's
 * interval by default; the sweep itself leaves a running drain alone.
 */
export const EXHAUSTED_RECHECK_MS = 2000;

/** Shared and never written to: a claim that leaves nobody out. */
export const NO_EXCLUSIONS: Readonly<ClaimExclusions> = { status: [], inbound: [] };

/**
 * Sizes the deliverer's claims and says whose events to leave out. A claim takes no more than the least
 * free busy host still holds, so one fast receiver's backlog streams through its queue instead of being
 * claimed and put back; a host with less than `minClaim` free counts as full, and the accounts whose events
 * went to it are left out of claims, so a slow receiver with a backlog larger than its queue never stands
 * in front of other accounts' events (claims run in due order, and without this the backlog is claimed,
 * queued or put back, first). When a claim that left accounts out comes back short, or one that left
 * nobody out comes back empty, nothing else is due until a wake-up, a put-back falls due, or one of the
 * hosts it left out has room again: until then (or for two seconds, longer if such claims are slow) the
 * planner waits instead of claiming again. A wake-up that arrived while the claim ran counts too.
 */
export class ClaimPlanner {
  /** "kind:accountId" → the host that account's events of that kind went to last. */
  private readonly routes = new Map<string, string>();
  /** The full hosts left out by the last short claim since a wake-up (null: none since). */
  private exhaustedExcept: Set<string> | null = null;
  private exhaustedUntil = 0;
  private excludingNotBefore = 0;
  /** A wake-up arrived since the claim now running was planned. */
  private wokenSincePlan = false;

  constructor(
    private readonly limits: ClaimLimits,
    private readonly hosts: HostRooms,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Receiving hosts with less than `minClaim` places free: their accounts are left out of claims. */
  fullHostCount(): number {
    let full = 0;
    for (const host of this.hosts.busyHosts()) if (this.isFull(host)) full++;
    return full;
  }

  /** An event of this account and kind is going to this host. */
  routed(kind: WebhookKind, accountId: number, host: string): void {
    this.routes.set(`${kind}:${accountId}`, host);
  }

  /** Events may have fallen due (stored, scheduled, put back): the next claim looks at everything. */
  woken(): void {
    this.exhaustedExcept = null;
    this.wokenSincePlan = true;
  }

  next(inFlight: number): ClaimPlan {
    let room = Math.min(this.limits.batch, this.hosts.capacity, this.limits.maxInFlight - inFlight);
    let full: string[] | undefined;
    for (const host of this.hosts.busyHosts()) {
      if (this.isFull(host)) (full ??= []).push(host);
      else room = Math.min(room, this.hosts.free(host));
    }
    if (room < this.limits.minClaim && inFlight > 0) return wait();
    if (this.exhaustedExcept) {
      const recheckIn = this.exhaustedUntil - this.now();
      if (recheckIn <= 0) this.exhaustedExcept = null;
      else if (allIn(this.exhaustedExcept, full)) return wait(recheckIn);
    }
    if (full) {
      const notBefore = this.excludingNotBefore - this.now();
      if (notBefore > 0) return wait(notBefore);
    }
    this.wokenSincePlan = false;
    return { size: room, excluding: this.accountsOn(full), fullHosts: full ?? [] };
  }

  /**
   * The accounts whose events went to one of the `full` hosts, per kind. Once per claim, it also forgets
   * the routes to idle hosts (all their places free), so the map holds only the accounts with deliveries
   * in flight, and an account that moved to another URL is not held to its old host.
   */
  private accountsOn(full: string[] | undefined): ClaimExclusions {
    const excluding: ClaimExclusions = full ? { status: [], inbound: [] } : NO_EXCLUSIONS;
    for (const [route, host] of this.routes) {
      if (this.hosts.free(host) === this.hosts.capacity) this.routes.delete(route);
      else if (full?.includes(host)) {
        const [kind, accountId] = route.split(':');
        excluding[kind as WebhookKind].push(Number(accountId));
      }
    }
    return excluding;
  }

  private isFull(host: string): boolean {
    return this.hosts.free(host) < this.limits.minClaim;
  }

  /**
   * The claim last planned (`plan`) took `got` events in `durationMs`. One that left nobody out and still
   * found some is no reason to wait: the next claim is as cheap, and picks up retries as they fall due. Nor
   * is a short claim during which a wake-up arrived: the events it announces may have been committed after
   * the claim's snapshot, and waiting would leave them for EXHAUSTED_RECHECK_MS (a claim that left accounts
   * out still spaces the next such claim). `plan` is the one next() returned last: one claim runs at a time.
   */
  claimed(plan: ClaimPlan, got: number, durationMs: number): void {
    if (got >= plan.size || (got > 0 && plan.fullHosts.length === 0)) return;
    if (plan.fullHosts.length > 0) this.excludingNotBefore = this.now() + EXCLUDING_CLAIM_SPACING * durationMs;
    if (this.wokenSincePlan) return;
    this.exhaustedExcept = new Set(plan.fullHosts);
    this.exhaustedUntil = this.now() + Math.max(EXHAUSTED_RECHECK_MS, EXCLUDING_CLAIM_SPACING * durationMs);
  }
}

/** Every one of `hosts` is among `full`. */
function allIn(hosts: Set<string>, full: string[] | undefined): boolean {
  for (const host of hosts) if (!full?.includes(host)) return false;
  return true;
}

function wait(retryInMs?: number): ClaimPlan {
  return { size: 0, excluding: NO_EXCLUSIONS, fullHosts: [], retryInMs };
}
