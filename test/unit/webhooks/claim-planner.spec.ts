import { ClaimPlanner, HostRooms } from '../../../src/webhooks/claim-planner';

/** Busy hosts and their free places, as the HostLimiter reports them. */
class Hosts implements HostRooms {
  readonly freeBy = new Map<string, number>();
  constructor(readonly capacity = CAPACITY) {}
  busyHosts(): Iterable<string> {
    return this.freeBy.keys();
  }
  free(host: string): number {
    return this.freeBy.get(host) ?? this.capacity;
  }
}

// 32 connections with a queue of 1024 behind them, as the defaults give; here a host with under 256 free is full.
const CAPACITY = 1056;
const limits = { batch: 500, minClaim: 256, maxInFlight: 2000 };

function planner() {
  const hosts = new Hosts();
  const clock = { ms: 0 };
  return { hosts, clock, planner: new ClaimPlanner(limits, hosts, () => clock.ms) };
}

describe(ClaimPlanner.name, () => {
  it('takes a whole batch, leaving nobody out, with nothing in flight', () => {
    const { planner: p } = planner();
    expect(p.next(0)).toEqual({ size: 500, excluding: { status: [], inbound: [] }, fullHosts: [] });
  });

  it('never takes more than one host holds when a host holds less than a batch', () => {
    const p = new ClaimPlanner({ ...limits, minClaim: 16 }, new Hosts(66));
    expect(p.next(0).size).toBe(66);
  });

  it('never claims past what the least free busy host still holds, so a single fast receiver gets nothing put back', () => {
    const { hosts, planner: p } = planner();
    hosts.freeBy.set('fast:443', 300);
    hosts.freeBy.set('roomy:443', 900);
    expect(p.next(756).size).toBe(300);
  });

  it('leaves out the accounts whose events went to a full host, per kind, and claims for everyone else', () => {
    const { hosts, planner: p } = planner();
    p.routed('status', 7, 'slow:443');
    p.routed('inbound', 7, 'other:443');
    p.routed('inbound', 8, 'slow:443');
    p.routed('status', 9, 'other:443');
    hosts.freeBy.set('slow:443', 10);
    hosts.freeBy.set('other:443', 700);
    expect(p.next(1400)).toEqual({ size: 500, excluding: { status: [7], inbound: [8] }, fullHosts: ['slow:443'] });
  });

  it('after a short claim waits while the hosts it left out stay full, and claims as soon as one has room', () => {
    const { hosts, clock, planner: p } = planner();
    p.routed('status', 7, 'slow:443');
    hosts.freeBy.set('slow:443', 0);
    const plan = p.next(CAPACITY);
    expect(plan.excluding.status).toEqual([7]);
    p.claimed(plan, 0, 5);
    clock.ms = 100;
    expect(p.next(CAPACITY)).toMatchObject({ size: 0, retryInMs: 1900 });
    hosts.freeBy.set('slow:443', 255);
    expect(p.next(801).size).toBe(0);
    hosts.freeBy.set('slow:443', 256);
    expect(p.next(800)).toEqual({ size: 256, excluding: { status: [], inbound: [] }, fullHosts: [] });
  });

  it('after a short claim looks again at a wake-up, or two seconds later without one', () => {
    const { hosts, clock, planner: p } = planner();
    p.routed('status', 7, 'slow:443');
    hosts.freeBy.set('slow:443', 0);
    p.claimed(p.next(CAPACITY), 0, 5);
    clock.ms = 1999;
    expect(p.next(CAPACITY).size).toBe(0);
    clock.ms = 2000;
    expect(p.next(CAPACITY).size).toBe(500);

    p.claimed(p.next(CAPACITY), 0, 5);
    clock.ms = 2100;
    expect(p.next(CAPACITY).size).toBe(0);
    p.woken();
    expect(p.next(CAPACITY).size).toBe(500);
  });

  it('a wake-up that arrives while a claim runs is not lost when the claim comes back empty', () => {
    const { clock, planner: p } = planner();
    const plan = p.next(0);
    // Events committed after the claim's snapshot, their wake-up handled before the claim returns.
    p.woken();
    p.claimed(plan, 0, 80);
    clock.ms = 100;
    expect(p.next(0).size).toBe(500);
    // The claim after it, empty with no wake-up meanwhile, means nothing is due.
    p.claimed(p.next(0), 0, 3);
    expect(p.next(0).size).toBe(0);
  });

  it('a wake-up while a claim that left accounts out runs does not lift the spacing of such claims', () => {
    const { hosts, clock, planner: p } = planner();
    p.routed('status', 7, 'slow:443');
    hosts.freeBy.set('slow:443', 0);
    const plan = p.next(CAPACITY);
    p.woken();
    p.claimed(plan, 0, 50);
    clock.ms = 499;
    expect(p.next(CAPACITY)).toMatchObject({ size: 0, retryInMs: 1 });
    clock.ms = 500;
    expect(p.next(CAPACITY)).toMatchObject({ size: 500, fullHosts: ['slow:443'] });
  });

  it('an empty claim with nobody left out means nothing is due: it waits for a wake-up even with room', () => {
    const { hosts, planner: p } = planner();
    hosts.freeBy.set('fast:443', 900);
    p.claimed(p.next(156), 0, 3);
    expect(p.next(36).size).toBe(0);
    p.woken();
    expect(p.next(36).size).toBe(500);
  });

  it('a short claim with nobody left out does not wait: the next one picks up what falls due meanwhile', () => {
    const { hosts, planner: p } = planner();
    hosts.freeBy.set('fast:443', 900);
    p.claimed(p.next(156), 120, 3);
    expect(p.next(276).size).toBe(500);
  });

  it('a full claim says nothing about what else is due: the next one goes ahead', () => {
    const { hosts, planner: p } = planner();
    hosts.freeBy.set('fast:443', 900);
    p.claimed(p.next(156), 500, 3);
    expect(p.next(656).size).toBe(500);
  });

  it('spaces claims that leave accounts out by ten times the last short one, wake-ups or not', () => {
    const { hosts, clock, planner: p } = planner();
    p.routed('status', 7, 'slow:443');
    hosts.freeBy.set('slow:443', 0);
    p.claimed(p.next(CAPACITY), 0, 40);
    p.woken();
    clock.ms = 100;
    expect(p.next(CAPACITY)).toMatchObject({ size: 0, retryInMs: 300 });
    clock.ms = 400;
    expect(p.next(CAPACITY).excluding.status).toEqual([7]);
  });

  it('forgets the routes to idle hosts at every claim, not only while a host is full', () => {
    const { hosts, planner: p } = planner();
    p.routed('status', 7, 'shared:443');
    expect(p.next(0).size).toBe(500);
    // Later the same host is busy again with another account's events, and full.
    p.routed('status', 9, 'shared:443');
    hosts.freeBy.set('shared:443', 0);
    expect(p.next(CAPACITY).excluding.status).toEqual([9]);
  });

  it('counts the full hosts for the metrics', () => {
    const { hosts, planner: p } = planner();
    hosts.freeBy.set('slow:443', 255);
    hosts.freeBy.set('fast:443', 256);
    hosts.freeBy.set('stuck:443', 0);
    expect(p.fullHostCount()).toBe(2);
  });

  it('keeps within the process-wide limit on deliveries in flight', () => {
    const { hosts, planner: p } = planner();
    hosts.freeBy.set('a:443', 900);
    hosts.freeBy.set('b:443', 900);
    expect(p.next(1600).size).toBe(400);
    expect(p.next(1800).size).toBe(0);
  });

  it('forgets where an account’s events went once that host is idle, so a new URL is not held to the old host', () => {
    const { hosts, planner: p } = planner();
    p.routed('status', 7, 'old:443');
    p.routed('status', 9, 'slow:443');
    hosts.freeBy.set('slow:443', 0);
    expect(p.next(CAPACITY).excluding.status).toEqual([9]);
    hosts.freeBy.set('old:443', 0);
    expect(p.next(CAPACITY).excluding.status).toEqual([9]);
  });
});
