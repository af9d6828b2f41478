import { Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import Redis from 'ioredis';
import { AppConfig } from '../../config/app-config';
import { RepeatedLines } from '../logging/repeated-lines';
import { classifyDependencyFailure } from '../errors/dependency-errors';
import { DependencyUnavailableError } from '../errors/domain-error';

/**
 * The service's Redis connection for its own keys (in-flight counters, caches). Every key carries the
 * configured prefix; the `/N` database index comes from REDIS_URL. Commands fail fast while Redis is
 * down (no offline queue), so callers answer 503 instead of hanging.
 */
@Injectable()
export class RedisService implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(RedisService.name);
  readonly client: Redis;

  constructor(config: AppConfig) {
    this.client = createRedisClient(config, { enableOfflineQueue: false });
    // Each reconnection attempt while Redis is away fails alike: once a second with a count.
    const errors = new RepeatedLines((msg, meta) => this.logger.warn({ msg, ...meta }));
    this.client.on('error', (err) => errors.note('redis connection error', { err: err.message }));
  }

  async onModuleInit(): Promise<void> {
    try {
      await this.client.connect();
    } catch (err) {
      // The service still starts: requests needing Redis answer 503 and /health says so until it is back.
      this.logger.error({ msg: 'redis unreachable at start', err: (err as Error).message });
    }
  }

  async onModuleDestroy(): Promise<void> {
    this.client.disconnect();
  }

  /** Runs a Redis operation, turning a connection failure into DependencyUnavailableError (503). */
  async run<T>(operation: (client: Redis) => Promise<T>): Promise<T> {
    try {
      return await operation(this.client);
    } catch (err) {
      if (this.client.status !== 'ready' || classifyDependencyFailure(err)) throw new DependencyUnavailableError('redis', err);
      throw err;
    }
  }

  async ping(): Promise<boolean> {
    try {
      return (await this.client.ping()) === 'PONG';
    } catch {
      return false;
    }
  }
}

export function redisKeyPrefix(config: AppConfig): string {
  return `${config.redisPrefix}:`;
}

export function createRedisClient(config: AppConfig, options: { enableOfflineQueue: boolean; maxRetriesPerRequest?: number | null }): Redis {
  return new Redis(config.redisUrl, {
    keyPrefix: redisKeyPrefix(config),
    lazyConnect: true,
    enableOfflineQueue: options.enableOfflineQueue,
    maxRetriesPerRequest: options.maxRetriesPerRequest === undefined ? 1 : options.maxRetriesPerRequest,
    connectTimeout: config.dependencyTimeoutMs,
    commandTimeout: config.dependencyTimeoutMs,
    retryStrategy: (times) => Math.min(times * 200, 2000),
  });
}
