import { Logger } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import type { AppConfig } from '../../../src/config/app-config';
import { PoolWarmup, warmPool } from '../../../src/database/pool-warmup';

/** A DataSource whose pool hands out clients that count their queries, or refuses every connection. */
function fakeDataSource(connect: () => Promise<unknown>): DataSource {
  return { driver: { master: { connect } } } as unknown as DataSource;
}

function countingPool(): { dataSource: DataSource; connects: () => number; released: () => number } {
  let connects = 0;
  let released = 0;
  const dataSource = fakeDataSource(() => {
    connects++;
    return Promise.resolve({ query: () => Promise.resolve({ rows: [] }), release: () => released++ });
  });
  return { dataSource, connects: () => connects, released: () => released };
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
});

describe('PoolWarmup', () => {
  const config = (databasePoolMin: number, databasePoolSize: number) => ({ databasePoolMin, databasePoolSize }) as AppConfig;

  it('opens DATABASE_POOL_MIN connections, never more than DATABASE_POOL_SIZE, and none for 0', async () => {
    for (const [min, size, expected] of [
      [4, 20, 4],
      [30, 5, 5],
      [0, 20, 0],
    ]) {
      const pool = countingPool();
      await new PoolWarmup(pool.dataSource, config(min, size)).onApplicationBootstrap();
      expect(pool.connects()).toBe(expected);
    }
  });

  it('only warns when the database cannot be reached at start: the pool opens connections as work needs them', async () => {
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    try {
      await expect(new PoolWarmup(refusing(), config(4, 20)).onApplicationBootstrap()).resolves.toBeUndefined();
      expect(warn).toHaveBeenCalledWith(expect.objectContaining({ err: 'connect ECONNREFUSED 127.0.0.1:5432' }));
    } finally {
      warn.mockRestore();
    }
  });
});
