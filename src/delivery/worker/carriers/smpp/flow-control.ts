/** Rate cap, backoff and queueing of the binds. */
/**
 * Token bucket: `ratePerSecond` tokens a second, holding at most `burst`. A rate of 0 or less (or
 * Infinity) means no cap. The burst is small by default so a bind never sends much above its rate in any
 * short window, which is how SMSCs usually measure a per-bind TPS limit.
 */
export class TokenBucket {
  private tokens: number;
  private updatedAt: number;
  private readonly unlimited: boolean;
  private readonly burst: number;

  constructor(
    private readonly ratePerSecond: number,
    burst?: number,
    now = Date.now(),
  ) {
    this.unlimited = !(ratePerSecond > 0) || !Number.isFinite(ratePerSecond);
    this.burst = burst ?? Math.max(1, Math.ceil(ratePerSecond / 10));
    this.tokens = this.burst;
    this.updatedAt = now;
  }

  /** Takes one token when available. */
  tryTake(now = Date.now()): boolean {
    if (this.unlimited) return true;
    this.refill(now);
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }

  /** Milliseconds until a token is available (0 when one is). */
  msUntilToken(now = Date.now()): number {
    if (this.unlimited) return 0;
    this.refill(now);
    return this.tokens >= 1 ? 0 : Math.ceil(((1 - this.tokens) * 1000) / this.ratePerSecond);
  }

  private refill(now: number): void {
    const elapsed = now - this.updatedAt;
    if (elapsed <= 0) return;
    this.tokens = Math.min(this.burst, this.tokens + (elapsed * this.ratePerSecond) / 1000);
    this.updatedAt = now;
  }
}

/** Exponential backoff: base·2^attempt capped at max, less up to 20% jitter so binds do not retry in step. */
export function backoffDelay(attempt: number, baseMs: number, maxMs: number, random: () => number = Math.random): number {
  const exponential = Math.min(maxMs, baseMs * 2 ** Math.min(attempt, 30));
  return Math.max(0, Math.round(exponential * (1 - 0.2 * random())));
}

/** A simple FIFO with O(1) push and shift (arrays shift in O(n)). */
export class Fifo<T> {
  private items: (T | undefined)[] = [];
  private head = 0;

  get length(): number {
    return this.items.length - this.head;
  }

  push(item: T): void {
    this.items.push(item);
  }

  shift(): T | undefined {
    if (this.head >= this.items.length) return undefined;
    const item = this.items[this.head];
    this.items[this.head++] = undefined;
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return item;
  }

  /** Removes and returns everything, oldest first. */
  drain(): T[] {
    const all = this.items.slice(this.head) as T[];
    this.items = [];
    this.head = 0;
    return all;
  }
}
