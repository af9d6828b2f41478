import { Logger } from '@nestjs/common';
import { EventEmitter } from 'node:events';
import type { DataSource } from 'typeorm';
import type { AppConfig } from '../../../src/config/app-config';
import { PoolWarmup, REFILL_AFTER_MS, REFILL_RETRY_MAX_MS, warmPool } from '../../../src/database/pool-warmup';

/** A DataSource whose pool hands out clients that count their queries, or refuses every connection. */
function fakeDataSource(connect: () => Promise<unknown>): DataSource {
  return { driver: { master: { connect } } } as unknown as DataSource;
}

function countingPool(): { dataSource: DataSource; connects: () => number; released: () => number } {
  let connects = 0;
  let released = 0;
  const dataSource = fakeDataSource(() => {
    connects++;
    return Promise.resolve(Object.assign(new EventEmitter(), { query: () => Promise.resolve({ rows: [] }), release: () => released++ }));
  });
  return { dataSource, connects: () => connects, released: () => released };
}

/**
 * A pool that keeps count as pg-pool does: a connect takes an idle client or opens one, a release makes it
 * idle, and `lose` drops clients and says so ('remove'). `refuse` makes every new connection fail.
 */
class FakePool extends EventEmitter {
  totalCount = 0;
  idleCount = 0;
  ending = false;
  opened = 0;
  refuse = false;
  connect(): Promise<unknown> {
    if (this.idleCount > 0) this.idleCount--;
    else if (this.refuse) return Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:5432'));
    else {
      this.totalCount++;
      this.opened++;
    }
    return Promise.resolve(Object.assign(new EventEmitter(), { query: () => Promise.resolve({ rows: [] }), release: () => this.idleCount++ }));
  }
  lose(count: number): void {
    this.totalCount -= count;
    this.idleCount -= count;
    for (let i = 0; i < count; i++) this.emit('remove');
  }
}

const refusing = () => fakeDataSource(() => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:5432')));

describe('warmPool', () => {
  it('takes that many clients at once, asks each one query and gives every one back', async () => {
    const pool = countingPool();
    const warming = warmPool(pool.dataSource, 7);
    expect(pool.connects()).toBe(7); // all asked for before any answered
    await warming;
    expect(pool.released()).toBe(7);
  });

  it('fails with the connection error when PostgreSQL cannot be reached', async () => {
    await expect(warmPool(refusing(), 3)).rejects.toThrow('ECONNREFUSED');
  });

  it('hears a connection lost during its query, and gives the client back with that error so the pool drops it', async () => {
    const lost = new Error('Connection terminated unexpectedly');
    const released: Array<Error | undefined> = [];
    const client = Object.assign(new EventEmitter(), {
      // As pg does: the client emits 'error' (which throws where nobody listens), then the query fails.
      query: () => {
        client.emit('error', lost);
        return Promise.reject(lost);
      },
      release: (err?: Error) => released.push(err),
    });
    await expect(
      warmPool(
        fakeDataSource(() => Promise.resolve(client)),
        1,
      ),
    ).rejects.toBe(lost);
    expect(released).toEqual([lost]);
    expect(client.listenerCount('error')).toBe(0);
  });
});

describe('PoolWarmup', () => {
  const config = (databasePoolMin: number, databasePoolSize: number) => ({ databasePoolMin, databasePoolSize }) as AppConfig;

  const dataSourceOf = (pool: FakePool) => ({ driver: { master: pool } }) as unknown as DataSource;

  it('opens DATABASE_POOL_MIN connections, never more than DATABASE_POOL_SIZE, and none for 0', async () => {
    for (const [min, size, expected] of [
      [4, 20, 4],
      [30, 5, 5],
      [0, 20, 0],
    ]) {
      const pool = new FakePool();
      const warmup = new PoolWarmup(dataSourceOf(pool), config(min, size));
      await warmup.onApplicationBootstrap();
      expect(pool.opened).toBe(expected);
      warmup.beforeApplicationShutdown();
    }
  });

  it('only warns when the database cannot be reached at start: the pool opens connections as work needs them', async () => {
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const pool = new FakePool();
    pool.refuse = true;
    const warmup = new PoolWarmup(dataSourceOf(pool), config(4, 20));
    try {
      await expect(warmup.onApplicationBootstrap()).resolves.toBeUndefined();
      expect(warn).toHaveBeenCalledWith(expect.objectContaining({ err: 'connect ECONNREFUSED 127.0.0.1:5432' }));
    } finally {
      warmup.beforeApplicationShutdown();
      warn.mockRestore();
    }
  });

  describe('after the pool loses connections', () => {
    const started = async (pool: FakePool, min = 5) => {
      const warmup = new PoolWarmup(dataSourceOf(pool), config(min, 20));
      await warmup.onApplicationBootstrap();
      return warmup;
    };
    let warn: jest.SpyInstance;

    beforeEach(() => {
      jest.useFakeTimers();
      warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    });
    afterEach(() => {
      warn.mockRestore();
      jest.useRealTimers();
    });

    it('opens them again up to the minimum, once, a moment after the first loss (a later loss meanwhile waits for it)', async () => {
      const pool = new FakePool();
      const warmup = await started(pool);
      expect(pool.totalCount).toBe(5);
      pool.lose(3);
      await jest.advanceTimersByTimeAsync(REFILL_AFTER_MS - 1);
      expect(pool.totalCount).toBe(2);
      pool.lose(1);
      await jest.advanceTimersByTimeAsync(1);
      expect(pool.totalCount).toBe(5);
      expect(pool.idleCount).toBe(5);
      expect(pool.opened).toBe(9);
      warmup.beforeApplicationShutdown();
    });

    it('tries again with doubling waits while the database cannot be reached, warning once', async () => {
      const pool = new FakePool();
      const warmup = await started(pool);
      pool.refuse = true;
      pool.lose(5);
      await jest.advanceTimersByTimeAsync(REFILL_AFTER_MS); // refused
      await jest.advanceTimersByTimeAsync(2 * REFILL_AFTER_MS); // refused
      await jest.advanceTimersByTimeAsync(4 * REFILL_AFTER_MS - 1);
      expect(pool.totalCount).toBe(0);
      pool.refuse = false;
      await jest.advanceTimersByTimeAsync(1);
      expect(pool.totalCount).toBe(5);
      expect(warn).toHaveBeenCalledTimes(1);
      // Back to the short wait for the next loss.
      pool.lose(2);
      await jest.advanceTimersByTimeAsync(REFILL_AFTER_MS);
      expect(pool.totalCount).toBe(5);
      warmup.beforeApplicationShutdown();
    });

    it('waits at most REFILL_RETRY_MAX_MS between tries', async () => {
      const pool = new FakePool();
      pool.refuse = true;
      const warmup = await started(pool); // the database out of reach from the start
      expect(warn).toHaveBeenCalledTimes(1);
      await jest.advanceTimersByTimeAsync(10 * REFILL_RETRY_MAX_MS);
      pool.refuse = false;
      await jest.advanceTimersByTimeAsync(REFILL_RETRY_MAX_MS);
      expect(pool.totalCount).toBe(5);
      expect(warn).toHaveBeenCalledTimes(1);
      warmup.beforeApplicationShutdown();
    });

    it('opens none once the service is shutting down', async () => {
      const pool = new FakePool();
      const warmup = await started(pool);
      warmup.beforeApplicationShutdown();
      pool.lose(5);
      await jest.advanceTimersByTimeAsync(10 * REFILL_AFTER_MS);
      expect(pool.totalCount).toBe(0);
      expect(pool.listenerCount('remove')).toBe(0);
    });
  });
});
