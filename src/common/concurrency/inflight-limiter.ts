import { randomUUID } from 'node:crypto';
import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';
import { RedisService } from '../redis/redis.service';

// Slots live in one sorted set per account, scored by expiry (Redis server time, so instances with
// skewed clocks agree). Expired slots, left by an instance that crashed mid-request, are purged first.
const ACQUIRE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[1]) then return 0 end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[3])
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[2]))
return 1`;

const HEARTBEAT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZADD', KEYS[1], 'XX', now + tonumber(ARGV[1]), ARGV[2])
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[1]))
return 1`;

export interface InflightSlot {
  /** Frees the slot; safe to call more than once. */
  release(): Promise<void>;
}

/**
 * At most N requests in flight per account across every instance. A slot is held until released; a
 * heartbeat keeps the slots of long requests alive, and a crashed instance's slots expire after the TTL.
 */
@Injectable()
export class InflightLimiter implements OnModuleDestroy {
  private readonly logger = new Logger(InflightLimiter.name);
  private readonly held = new Map<string, string>(); // token -> key
  private readonly heartbeat: NodeJS.Timeout;

  constructor(
    private readonly redis: RedisService,
    private readonly config: AppConfig,
  ) {
    this.heartbeat = setInterval(() => void this.refreshHeldSlots(), Math.max(250, Math.floor(config.inflightSlotTtlMs / 3)));
    this.heartbeat.unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.heartbeat);
  }

  /** Returns a slot, or null when the account already has the limit in flight. */
  async tryAcquire(accountId: number): Promise<InflightSlot | null> {
    const key = `inflight:${accountId}`;
    const token = randomUUID();
    const granted = await this.redis.run((c) => c.eval(ACQUIRE, 1, key, this.config.inflightLimit, this.config.inflightSlotTtlMs, token));
    if (granted !== 1) return null;
    this.held.set(token, key);
    let released: Promise<void> | undefined;
    return {
      release: () => {
        released ??= this.redis.client.zrem(key, token).then(
          () => undefined,
          (err: Error) => {
            // The slot then expires by TTL; nothing else to do.
            this.logger.warn({ msg: 'could not release in-flight slot', err: err.message });
          },
        );
        this.held.delete(token);
        return released;
      },
    };
  }

  private async refreshHeldSlots(): Promise<void> {
    if (this.held.size === 0) return;
    const pipeline = this.redis.client.pipeline();
    for (const [token, key] of this.held) pipeline.eval(HEARTBEAT, 1, key, this.config.inflightSlotTtlMs, token);
    await pipeline.exec().catch((err: Error) => this.logger.warn({ msg: 'in-flight heartbeat failed', err: err.message }));
  }
}
