import { CarrierGroup } from '../../../../src/delivery/worker/carriers/carrier-group';
import { CarrierHealthBoard } from '../../../../src/delivery/worker/carriers/carrier-health-board';
import { FakeCarrier, messages } from './fixtures/fake-carrier';

const settings = { downErrorShare: 0.5, errorWindowMs: 10_000, minSubmits: 20, holdDownMs: 30_000, holdDownMaxMs: 240_000 };
const LONG = 'x'.repeat(400); // three GSM-7 parts

describe('CarrierGroup', () => {
  let now: number;
  let board: CarrierHealthBoard;
  let a: FakeCarrier;
  let b: FakeCarrier;
  let c: FakeCarrier;
  beforeEach(() => {
    now = 1_000_000;
    board = new CarrierHealthBoard(settings, () => now);
    a = new FakeCarrier(1, 'a');
    b = new FakeCarrier(2, 'b');
    c = new FakeCarrier(3, 'c');
  });
  const group = (members: Array<[FakeCarrier, number, number]>, retryAttempts = 3) =>
    new CarrierGroup(
      members.map(([carrier, weight, priority]) => ({ carrier, weight, priority })),
      board,
      { retryAttempts, pollMs: 5 },
    );
  const byCarrier = (results: Awaited<ReturnType<CarrierGroup['submit']>>) => {
    const counts = new Map<number, number>();
    for (const r of results) for (const p of r.parts) counts.set(p.carrierId, (counts.get(p.carrierId) ?? 0) + 1);
    return Object.fromEntries(counts);
  };

  it('shares messages among the lowest priority by weight, whole messages to one carrier', async () => {
    const g = group([
      [a, 3, 1],
      [b, 1, 1],
      [c, 5, 2],
    ]);
    const results = await g.submit(messages(400, LONG));
    expect(byCarrier(results)).toEqual({ 1: 900, 2: 300 });
    for (const r of results) expect(new Set(r.parts.map((p) => p.carrierId)).size).toBe(1);
    expect(results.every((r) => r.parts.every((p) => p.smscId))).toBe(true);
  });

  it('moves traffic to the next priority when the first is down, and back after the hold-down once it recovers', async () => {
    const g = group([
      [a, 1, 1],
      [b, 1, 2],
    ]);
    expect(byCarrier(await g.submit(messages(10)))).toEqual({ 1: 10 });
    a.bindsUp = 0;
    expect(byCarrier(await g.submit(messages(10)))).toEqual({ 2: 10 });
    a.bindsUp = 1;
    expect(byCarrier(await g.submit(messages(10)))).toEqual({ 2: 10 }); // hold-down
    now += 30_000;
    expect(byCarrier(await g.submit(messages(10)))).toEqual({ 1: 10 });
  });

  it('retries a part refused for now on another member, keeping its concatenation reference, and fails a permanent refusal with its status', async () => {
    a.answer = (m, part) => (m.messageId === 'm0' && part === 2 ? 'temporary' : m.messageId === 'm1' ? 'permanent' : 'accepted');
    const g = group([
      [a, 1, 1],
      [b, 1, 2],
    ]);
    const [m0, m1] = await g.submit(messages(2, LONG));
    expect(m0.parts.map((p) => [p.partNumber, p.carrierId, !!p.smscId])).toEqual([
      [1, 1, true],
      [2, 2, true],
      [3, 1, true],
    ]);
    const refs = new Set([...a.sent, ...b.sent].filter((s) => s.messageId === 'm0').map((s) => s.ref));
    expect(refs.size).toBe(1);
    expect(b.sent).toEqual([{ messageId: 'm0', partNumber: 2, handBack: true, ref: [...refs][0] }]);
    expect(m1.parts).toEqual([1, 2, 3].map((n) => expect.objectContaining({ partNumber: n, smscId: null, outcome: 'permanent', errorCode: 0x0b, carrierId: 1 })));
  });

  it('hands a part back at most retryAttempts times, then leaves it to a carrier to retry inside (never failed for a throttle)', async () => {
    a.answer = () => 'temporary';
    b.answer = () => 'temporary';
    const g = group(
      [
        [a, 1, 1],
        [b, 1, 1],
      ],
      2,
    );
    const [m0] = await g.submit(messages(1));
    expect(m0.parts).toEqual([expect.objectContaining({ smscId: expect.any(String) })]);
    // Sent to one member, handed back, to the other, handed back, to the first again to keep.
    const [first, second] = a.sent[0].handBack && a.sent.length === 2 ? [a, b] : [b, a];
    expect(first.sent.map((t) => t.handBack)).toEqual([true, false]);
    expect(second.sent.map((t) => t.handBack)).toEqual([true]);
  });

  it('delivers every message at a 30% throttle share on one member, none failed, and keeps that member in use', async () => {
    let n = 0;
    a.answer = () => (n++ % 10 < 3 ? 'temporary' : 'accepted');
    const g = group([
      [a, 1, 1],
      [b, 1, 1],
    ]);
    const results = await g.submit(messages(1000));
    expect(results.every((r) => r.parts.length === 1 && r.parts[0].smscId)).toBe(true);
    expect(board.isUp(a)).toBe(true);
    expect(byCarrier(results)[1]).toBeGreaterThan(300);
  });

  it('resends through the next member the parts in doubt when a carrier dies, each once', async () => {
    a.answer = (m) => (Number(m.messageId.slice(1)) % 2 === 0 ? 'hang' : 'accepted');
    const g = group([
      [a, 1, 1],
      [b, 1, 2],
    ]);
    const submitted = g.submit(messages(20));
    await new Promise((resolve) => setTimeout(resolve, 10));
    a.die();
    const results = await submitted;
    expect(results.every((r) => r.parts.length === 1 && r.parts[0].smscId)).toBe(true);
    expect(byCarrier(results)).toEqual({ 1: 10, 2: 10 });
    expect(b.sent.map((s) => s.messageId)).toEqual(['m0', 'm2', 'm4', 'm6', 'm8', 'm10', 'm12', 'm14', 'm16', 'm18']);
    // The bound: a duplicate only for what the dead carrier held unanswered.
    const both = a.sent.filter((s) => b.sent.some((t) => t.messageId === s.messageId));
    expect(both.length).toBe(10);
  });

  it('holds messages while every member is down (counted as waiting), sends them when one is back', async () => {
    a.bindsUp = 0;
    b.bindsUp = 0;
    const g = group([
      [a, 1, 1],
      [b, 1, 2],
    ]);
    const submitted = g.submit(messages(3, LONG), { mayHandOver: () => true });
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(board.waiting()).toEqual({ messages: 3, parts: 9 });
    expect(a.sent.length + b.sent.length).toBe(0);
    b.bindsUp = 1;
    const results = await submitted;
    expect(byCarrier(results)).toEqual({ 2: 9 });
    expect(board.waiting()).toEqual({ messages: 0, parts: 0 });
  });

  it('gives waiting messages back unsent (withheld) once the lease fence says stop', async () => {
    a.bindsUp = 0;
    b.bindsUp = 0;
    let fence = true;
    const g = group([
      [a, 1, 1],
      [b, 1, 2],
    ]);
    const submitted = g.submit(messages(2, LONG), { mayHandOver: () => fence });
    await new Promise((resolve) => setTimeout(resolve, 20));
    fence = false;
    const results = await submitted;
    expect(results.flatMap((r) => r.parts.map((p) => [p.partNumber, p.outcome]))).toEqual([
      [1, 'withheld'],
      [2, 'withheld'],
      [3, 'withheld'],
      [1, 'withheld'],
      [2, 'withheld'],
      [3, 'withheld'],
    ]);
    expect(board.waiting()).toEqual({ messages: 0, parts: 0 });
  });

  it('still sends through a member down only for its error share when no member is up', async () => {
    b.bindsUp = 0;
    const g = group([
      [a, 1, 1],
      [b, 1, 2],
    ]);
    for (let i = 0; i < 30; i++) board.record(1, 'temporary');
    expect(board.isUp(a)).toBe(false);
    expect(byCarrier(await g.submit(messages(5)))).toEqual({ 1: 5 });
  });

  it('passes a one-member group straight through: the carrier keeps its own retries', async () => {
    const g = group([[a, 1, 1]]);
    await g.submit(messages(2));
    expect(a.sent.map((s) => s.handBack)).toEqual([false, false]);
  });

  describe('reloads (setMembers) and retired members', () => {
    it('sends messages waiting for a member through the members a reload gives the route, none withheld', async () => {
      a.bindsUp = 0;
      const g = group([[a, 1, 1]]);
      g.setMembers([]); // a reload left the route with no usable carrier: its messages wait
      const submitted = g.submit(messages(2, LONG), { mayHandOver: () => true });
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(board.waiting()).toEqual({ messages: 2, parts: 6 });
      g.setMembers([{ carrier: b, weight: 1, priority: 0 }]);
      const results = await submitted;
      expect(byCarrier(results)).toEqual({ 2: 6 });
      expect(results.every((r) => r.parts.every((p) => p.smscId && p.outcome === undefined))).toBe(true);
      expect(board.waiting()).toEqual({ messages: 0, parts: 0 });
    });

    it("hands the parts a one-member route's carrier held unsent to its successor when carrier:update retires it, none failed", async () => {
      a.answer = () => 'hang'; // queued: its binds are down, say
      const successor = new FakeCarrier(1, 'a');
      const g = group([[a, 1, 1]]);
      const submitted = g.submit(messages(3, LONG));
      await new Promise((resolve) => setTimeout(resolve, 10));
      g.setMembers([{ carrier: successor, weight: 1, priority: 1 }]);
      a.retire();
      const results = await submitted;
      expect(results.flatMap((r) => r.parts.map((p) => [p.partNumber, p.carrierId, typeof p.smscId]))).toEqual([0, 1, 2].flatMap(() => [1, 2, 3].map((n) => [n, 1, 'string'])));
      expect(successor.sent).toHaveLength(9);
      // The successor has the retired carrier's id: what the retired one gave back is no sign of trouble.
      expect(board.view().find((v) => v.id === 1)).toMatchObject({ state: 'up', recentErrors: 0 });
    });

    it('sends what a retired member of a shared route gave back through the other member, and never chooses it again', async () => {
      a.answer = () => 'hang';
      const g = group([
        [a, 1, 1],
        [b, 1, 1],
      ]);
      const submitted = g.submit(messages(4));
      await new Promise((resolve) => setTimeout(resolve, 10));
      a.retire();
      const results = await submitted;
      expect(byCarrier(results)).toEqual({ 2: 4 });
      expect(byCarrier(await g.submit(messages(4)))).toEqual({ 2: 4 });
    });

    it('keeps its members (and their weighted turn) when a reload gives it the same ones', async () => {
      const g = group([
        [a, 1, 1],
        [b, 1, 1],
      ]);
      expect(byCarrier(await g.submit(messages(1)))).toEqual({ 1: 1 });
      g.setMembers([
        { carrier: a, weight: 1, priority: 1 },
        { carrier: b, weight: 1, priority: 1 },
      ]);
      expect(byCarrier(await g.submit(messages(1)))).toEqual({ 2: 1 });
    });
  });
});
