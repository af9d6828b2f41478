import { performance } from 'node:perf_hooks';
import type { Carrier, OutboundMessage, SubmissionResult, SubmitOptions } from '../../src/delivery/worker/carriers/carrier';
import { CarrierGroup } from '../../src/delivery/worker/carriers/carrier-group';
import { CarrierHealthBoard } from '../../src/delivery/worker/carriers/carrier-health-board';
import { SmppCarrier } from '../../src/delivery/worker/carriers/smpp/smpp-carrier';
import { STATUS } from '../../src/smpp/commands';
import { SMSC_CREDENTIALS } from '../support/delivery';
import { SmscPeer, startSmscPeers, stopSmscPeers } from '../support/smsc-peers';

const BINDS = 2;
const WINDOW = 10;
/** Groups of this many messages out at once, as the dispatcher's recorder allows for two such carriers. */
const GROUP = 10;
const GROUPS_OUT = Math.ceil((2 * 2 * BINDS * WINDOW) / GROUP);
const HEALTH = { downErrorShare: 0.5, errorWindowMs: 10_000, minSubmits: 20, holdDownMs: 30_000, holdDownMaxMs: 300_000 };

jest.setTimeout(180_000);

/** Counts what a member hands back to its group. */
class Watched implements Carrier {
  inDoubt = 0;
  temporary = 0;
  constructor(readonly inner: SmppCarrier) {}
  get id(): number {
    return this.inner.id;
  }
  get name(): string {
    return this.inner.name;
  }
  async submit(messages: OutboundMessage[], options?: SubmitOptions): Promise<SubmissionResult[]> {
    const results = await this.inner.submit(messages, options);
    for (const r of results) {
      for (const p of r.parts) {
        if (p.outcome === 'in-doubt') this.inDoubt++;
        if (p.outcome === 'temporary') this.temporary++;
      }
    }
    return results;
  }
  start(): Promise<void> {
    return this.inner.start();
  }
  onReceipt(): void {}
  onInbound(): void {}
  state() {
    return this.inner.state();
  }
  close(): Promise<void> {
    return this.inner.close();
  }
}

function smpp(id: number, port: number): SmppCarrier {
  return new SmppCarrier({
    id,
    name: `carrier-${id}`,
    host: '127.0.0.1',
    port,
    ...SMSC_CREDENTIALS,
    tls: false,
    binds: BINDS,
    window: WINDOW,
    tpsPerBind: 0,
    enquireLinkMs: 30_000,
    reconnectBaseMs: 200,
    reconnectMaxMs: 1_000,
    submitTimeoutMs: 5_000,
  });
}

/** Message i of a campaign: one destination each, so the peers' per-destination counts show repeats. */
const message = (block: string, i: number): OutboundMessage => ({
  messageId: `${block}-${i}`,
  from: 'Brand',
  to: `614${block}${String(i).padStart(5, '0')}`,
  text: `Chaos ${i}`,
  encoding: 'gsm7',
});

interface Settled {
  result: SubmissionResult;
  sentAt: number;
  settledAt: number;
}

/** Hands `count` messages to the group GROUP at a time, GROUPS_OUT groups out at once, as the dispatcher does. */
async function campaign(group: CarrierGroup, block: string, count: number, onProgress?: (done: number) => void): Promise<Settled[]> {
  const settled: Settled[] = [];
  let next = 0;
  const lane = async () => {
    while (next < count) {
      const batch = Array.from({ length: Math.min(GROUP, count - next) }, () => message(block, next++));
      const sentAt = performance.now();
      const results = await group.submit(batch, { mayHandOver: () => true });
      const settledAt = performance.now();
      for (const result of results) settled.push({ result, sentAt, settledAt });
      onProgress?.(settled.length);
    }
  };
  await Promise.all(Array.from({ length: GROUPS_OUT }, lane));
  return settled;
}

/**
 * Carrier failover with real SMPP sessions to two SMSC simulators on loopback: one carrier's process is
 * killed mid-campaign, or answers 30% of its submits throttled. The group is the worker's CarrierGroup
 * over two SmppCarriers, driven the way the dispatcher drives a carrier.
 */
describe('Carrier failover', () => {
  let peers: SmscPeer[] = [];
  let carriers: Watched[] = [];
  afterEach(async () => {
    await Promise.all(carriers.map((c) => c.close()));
    await stopSmscPeers(peers);
    carriers = [];
    peers = [];
  });

  async function setUp(processes: boolean): Promise<CarrierGroup> {
    peers = await startSmscPeers(2, { processes, receiptDelayMs: 200 });
    carriers = peers.map((p, i) => new Watched(smpp(i + 1, p.port)));
    const board = new CarrierHealthBoard(HEALTH);
    const group = new CarrierGroup(
      carriers.map((carrier) => ({ carrier, weight: 1, priority: 1 })),
      board,
      { retryAttempts: 3 },
    );
    await Promise.all(carriers.map((c) => c.start()));
    return group;
  }

  it('a carrier killed mid-campaign: every message accepted through the other within 5 s, repeats within the dead carrier’s window', async () => {
    const group = await setUp(true);
    const COUNT = 6000;
    let killedAt = 0;
    let killed: Promise<unknown> | null = null;
    const settled = await campaign(group, '71', COUNT, (done) => {
      if (!killed && done >= COUNT / 4) {
        killedAt = performance.now();
        killed = peers[0].process!.stop('SIGKILL');
      }
    });
    await killed;

    const failed = settled.filter((s) => s.result.parts.some((p) => !p.smscId));
    expect(failed.map((s) => s.result.parts)).toEqual([]);
    expect(settled).toHaveLength(COUNT);
    // Messages out when the carrier died: each settled (through the survivor) within 5 s of the kill.
    const outAtKill = settled.filter((s) => s.sentAt <= killedAt && s.settledAt > killedAt);
    const movedMs = Math.max(0, ...outAtKill.map((s) => s.settledAt - killedAt));
    const after = settled.filter((s) => s.sentAt > killedAt);
    const byCarrierAfter = new Set(after.flatMap((s) => s.result.parts.map((p) => p.carrierId)));
    // Repeats: parts the dead carrier may have taken (sent, unanswered) and that went again through the other.
    const inDoubt = carriers[0].inDoubt;
    const atSurvivor = await peers[1].control.destinations('61471');
    const twiceAtSurvivor = [...atSurvivor.values()].filter((n) => n > 1).length;
    process.stdout.write(
      `carrier killed: ${COUNT} accepted, ${outAtKill.length} messages out at the kill settled within ${Math.round(movedMs)} ms; ` +
        `${inDoubt} parts in doubt resent through the other (bound ${BINDS * WINDOW}); ${twiceAtSurvivor} destinations twice at the survivor\n`,
    );
    expect(movedMs).toBeLessThan(5_000);
    expect([...byCarrierAfter]).toEqual([2]);
    expect(inDoubt).toBeLessThanOrEqual(BINDS * WINDOW);
    expect(twiceAtSurvivor).toBe(0);
  });

  it('a carrier answering 30% throttled: every message accepted, none failed, the carrier still used', async () => {
    const group = await setUp(false);
    await peers[0].control.setSubmitError(STATUS.ESME_RTHROTTLED, 0.3);
    const COUNT = 3000;
    const settled = await campaign(group, '72', COUNT);

    expect(settled.filter((s) => s.result.parts.some((p) => !p.smscId)).map((s) => s.result.parts)).toEqual([]);
    const [first, second] = await Promise.all(peers.map((p) => p.control.destinations('61472')));
    const accepted = new Map<string, number>();
    for (const m of [first, second]) for (const [to, n] of m) accepted.set(to, (accepted.get(to) ?? 0) + n);
    const stats = await peers[0].control.stats();
    process.stdout.write(
      `30% throttled: ${COUNT} accepted, none failed; throttled carrier took ${first.size}, the other ${second.size}; ` +
        `${stats.refused_by_status['0x58'] ?? 0} throttled answers, ${carriers[0].temporary} handed back and retried\n`,
    );
    expect(accepted.size).toBe(COUNT);
    expect([...accepted.values()].every((n) => n === 1)).toBe(true);
    expect(stats.refused_by_status['0x58']).toBeGreaterThan(0);
    expect(first.size).toBeGreaterThan(COUNT / 5);
  });
});
