import { Injectable } from '@nestjs/common';
import { RedisService } from './redis.service';

/**
 * Fixed-window counters per client address in Redis (shared by every instance; losing them only resets
 * a window): how often an address missed an unknown link, or asked for something costly. A counter's
 * window starts at its first count.
 */
@Injectable()
export class AddressCounter {
  constructor(private readonly redis: RedisService) {}

  /** The current count of `key` and the milliseconds left in its window (0 when none is open). */
  async peek(key: string): Promise<{ count: number; resetMs: number }> {
    return this.redis.run(async (c) => {
      const results = (await c.multi().get(key).pttl(key).exec()) as Array<[Error | null, unknown]>;
      return { count: Number(results[0][1] ?? 0), resetMs: Math.max(0, Number(results[1][1])) };
    });
  }

  /** The current count of `key` alone (one GET: for a hot path that needs the window only when over its limit). */
  async count(key: string): Promise<number> {
    return this.redis.run(async (c) => Number((await c.get(key)) ?? 0));
  }

  /** Counts one more in a window of `windowMs`; returns the new count. */
  async add(key: string, windowMs: number): Promise<number> {
    return this.redis.run(async (c) => {
      const results = (await c.multi().set(key, 0, 'PX', windowMs, 'NX').incr(key).exec()) as Array<[Error | null, unknown]>;
      return Number(results[1][1]);
    });
  }
}
