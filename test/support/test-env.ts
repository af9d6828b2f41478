import { Client } from 'pg';
import Redis from 'ioredis';

/** Where a test run's own database and Redis keys live; written by global setup, read by every test file. */
export interface TestEnv {
  databaseUrl: string;
  redisUrl: string;
  redisPrefix: string;
}

export function testEnvFromProcess(): TestEnv {
  const { DATABASE_URL, REDIS_URL, REDIS_PREFIX } = process.env;
  if (!DATABASE_URL || !REDIS_URL || !REDIS_PREFIX) throw new Error('test environment not set up (run through jest global setup)');
  return { databaseUrl: DATABASE_URL, redisUrl: REDIS_URL, redisPrefix: REDIS_PREFIX };
}

export async function dropDatabase(databaseUrl: string): Promise<void> {
  const url = new URL(databaseUrl);
  const name = url.pathname.slice(1);
  url.pathname = '/postgres';
  const client = new Client({ connectionString: url.toString() });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  } finally {
    await client.end();
  }
}

export async function deleteRedisKeys(redisUrl: string, prefix: string): Promise<number> {
  const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  let deleted = 0;
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length) deleted += await redis.del(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
  return deleted;
}
