import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { poolOf } from './typeorm-pool';

/**
 * Opens `count` connections of the pool at once, each asked one query, and gives them back idle. The pool
 * keeps that many open (its `min`), so the first burst of work finds them ready instead of waiting for
 * PostgreSQL to start a backend per connection while the machine is busiest.
 */
export async function warmPool(dataSource: DataSource, count: number): Promise<void> {
  const pool = poolOf(dataSource);
  const opened = await Promise.allSettled(
    Array.from({ length: count }, async () => {
      const client = await pool.connect();
      // A connection lost while checked out is given back with its error, so the pool drops it.
      let lost: Error | undefined;
      const onError = (err: Error) => (lost = err);
      client.on('error', onError);
      try {
        await client.query('SELECT 1');
      } finally {
        client.off('error', onError);
        client.release(lost);
      }
    }),
  );
  const failed = opened.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
}

/**
 * After the pool loses connections (a failover, a PostgreSQL restart, a backend ended), it opens them again
 * up to its minimum this long after the first loss, by when a failover has dropped them all; while the
 * database cannot be reached, again after twice as long each time, up to REFILL_RETRY_MAX_MS.
 */
export const REFILL_AFTER_MS = 500;
export const REFILL_RETRY_MAX_MS = 30_000;

/**
 * Before the service takes its first request or job, the pool opens DATABASE_POOL_MIN connections, and
 * whenever it has lost some since, it opens them again (pg-pool's `min` only keeps idle ones from closing).
 * A database that cannot be reached is only a warning: meanwhile the pool opens connections as work needs
 * them, and the minimum is tried again.
 */
@Injectable()
export class PoolWarmup implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(PoolWarmup.name);
  private minimum = 0;
  private refillTimer?: NodeJS.Timeout;
  private retryMs = REFILL_AFTER_MS;
  private stopped = false;
  private readonly onRemove = () => this.schedule(REFILL_AFTER_MS);

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly config: AppConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.minimum = Math.min(this.config.databasePoolMin, this.config.databasePoolSize);
    if (this.minimum === 0) return;
    poolOf(this.dataSource).on('remove', this.onRemove);
    await this.topUp();
  }

  beforeApplicationShutdown(): void {
    this.stopped = true;
    clearTimeout(this.refillTimer);
    this.refillTimer = undefined;
    if (this.minimum > 0) poolOf(this.dataSource).off('remove', this.onRemove);
  }

  /** One top-up at a time: a loss while one is waiting moves it no later. */
  private schedule(delayMs: number): void {
    if (this.stopped || this.refillTimer) return;
    this.refillTimer = setTimeout(() => {
      this.refillTimer = undefined;
      void this.topUp();
    }, delayMs);
    this.refillTimer.unref();
  }

  private async topUp(): Promise<void> {
    const pool = poolOf(this.dataSource);
    const missing = this.minimum - pool.totalCount;
    if (this.stopped || pool.ending || missing <= 0) return;
    try {
      // The pool hands out its idle connections before it opens new ones: asked for those too, it opens `missing`.
      await warmPool(this.dataSource, missing + pool.idleCount);
      this.retryMs = REFILL_AFTER_MS;
    } catch (err) {
      if (this.retryMs === REFILL_AFTER_MS) {
        this.logger.warn({
          msg: 'database connections not opened to the pool minimum; the pool opens them as work needs them, and the minimum is tried again',
          err: (err as Error).message,
        });
      }
      this.retryMs = Math.min(this.retryMs * 2, REFILL_RETRY_MAX_MS);
      this.schedule(this.retryMs);
    }
  }
}
