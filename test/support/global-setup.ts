import { randomBytes } from 'node:crypto';
import { loadConfig } from '../../src/config/app-config';
import { prepareDatabase } from '../../src/database/prepare-database';

/**
 * One fresh database and Redis key prefix per test run, so runs never collide; dropped in teardown.
 * Values go into process.env, which the test workers inherit.
 */
export default async function globalSetup(): Promise<void> {
  const run = `${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const admin = new URL(process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
  admin.pathname = `/sms_test_${run}`;
  process.env.DATABASE_URL = admin.toString();
  process.env.REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
  process.env.REDIS_PREFIX = `smstest:${run}`;
  process.env.NODE_ENV = 'test';
  process.env.LOG_LEVEL = process.env.TEST_LOG_LEVEL ?? 'silent';
  await prepareDatabase(loadConfig(process.env));
}
