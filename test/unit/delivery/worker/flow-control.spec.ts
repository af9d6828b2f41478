import { backoffDelay, Fifo, TokenBucket } from '../../../../src/delivery/worker/carriers/smpp/flow-control';
import { describeStatus } from '../../../../src/smpp/commands';

describe(TokenBucket.name, () => {
  it('allows a burst of a tenth of the rate, then one token per 1/rate seconds', () => {
    const bucket = new TokenBucket(100, undefined, 0);
    const taken = Array.from({ length: 12 }, () => bucket.tryTake(0)).filter(Boolean).length;
    expect(taken).toBe(10);
    expect(bucket.msUntilToken(0)).toBe(10);
    expect(bucket.tryTake(9)).toBe(false);
    expect(bucket.tryTake(10)).toBe(true);
  });

  it('never limits when the rate is 0', () => {
    const bucket = new TokenBucket(0, undefined, 0);
    expect(Array.from({ length: 1000 }, () => bucket.tryTake(0)).every(Boolean)).toBe(true);
    expect(bucket.msUntilToken(0)).toBe(0);
  });
});

describe(backoffDelay.name, () => {
  it('doubles from the base and stops at the cap', () => {
    const noJitter = (): number => 0;
    expect([0, 1, 2, 3, 10, 100].map((attempt) => backoffDelay(attempt, 100, 1000, noJitter))).toEqual([100, 200, 400, 800, 1000, 1000]);
  });

  it('takes at most 20% off for jitter', () => {
    expect(backoffDelay(0, 100, 1000, () => 1)).toBe(80);
  });
});

describe(describeStatus.name, () => {
  it('names known command statuses and shows unknown ones in hex', () => {
    expect(describeStatus(0x58)).toBe('ESME_RTHROTTLED (0x00000058)');
    expect(describeStatus(0x4ff)).toBe('status 0x000004FF');
  });
});

describe(Fifo.name, () => {
  it('returns items in insertion order across compaction', () => {
    const fifo = new Fifo<number>();
    for (let i = 0; i < 5000; i++) fifo.push(i);
    const out: number[] = [];
    for (let i = 0; i < 3000; i++) out.push(fifo.shift() as number);
    fifo.push(5000);
    expect(fifo.length).toBe(2001);
    expect(out.slice(0, 3)).toEqual([0, 1, 2]);
    expect(fifo.shift()).toBe(3000);
    expect(fifo.drain().at(-1)).toBe(5000);
    expect(fifo.length).toBe(0);
  });
});
