import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Pool } from 'pg';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/app-config';

/** The pg pool under TypeORM's PostgreSQL driver (its primary's; this service has no read replicas). */
function poolOf(dataSource: DataSource): Pool {
  return (dataSource.driver as unknown as { master: Pool }).master;
}

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
      try {
        await client.query('SELECT 1');
      } finally {
        client.release();
      }
    }),
  );
  const failed = opened.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
}

/**
 * Before the service takes its first request or job, the pool opens DATABASE_POOL_MIN connections. A
 * database that cannot be reached then is only a warning: the pool opens connections as work needs them.
 */
@Injectable()
export class PoolWarmup implements OnApplicationBootstrap {
  private readonly logger = new Logger(PoolWarmup.name);

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly config: AppConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const count = Math.min(this.config.databasePoolMin, this.config.databasePoolSize);
    if (count === 0) return;
    try {
      await warmPool(this.dataSource, count);
    } catch (err) {
      this.logger.warn({ msg: 'database connections not opened ahead of work; the pool opens them as needed', err: (err as Error).message });
    }
  }
}
