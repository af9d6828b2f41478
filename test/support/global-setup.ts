import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../src/config/app-config';
import { prepareDatabase } from '../../src/database/prepare-database';
import { MIGRATIONS } from '../../src/migrations';

/**
 * One migrated template database and one Redis key prefix per test run. Each test file then gets its
 * own copy of the template and its own prefix (per-file-database.ts), so files running in parallel
 * never see each other's messages, queues or workers. Everything is dropped in teardown.
 */
export default async function globalSetup(): Promise<void> {
  const run = `${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const url = new URL(process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
  url.pathname = `/sms_test_${run}`;
  process.env.TEST_TEMPLATE_DATABASE_URL = url.toString();
  process.env.DATABASE_URL = url.toString();
  process.env.REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
  process.env.TEST_RUN_REDIS_PREFIX = `smstest:${run}`;
  process.env.REDIS_PREFIX = `smstest:${run}`;
  process.env.NODE_ENV = 'test';
  process.env.LOG_LEVEL = process.env.TEST_LOG_LEVEL ?? 'silent';
  // Suites send large batches from live accounts within one hour: the sending brake's starting allowance
  // is raised for them (every send still goes through it); its own tests set small thresholds.
  process.env.SENDING_BRAKE_ALLOWANCE = process.env.TEST_SENDING_BRAKE_ALLOWANCE ?? '100000000';
  // Hundreds of apps start and stop in a run, most using a connection or two: none opens its pool's
  // minimum ahead of work (test/e2e/pool-warmup.e2e-spec.ts starts one that does).
  process.env.DATABASE_POOL_MIN = process.env.TEST_DATABASE_POOL_MIN ?? '0';
  // Processes of the built service (dist/src/main.js) and the SMSC simulator that e2e and chaos tests start
  // load some 3000 modules each: Node's on-disk compile cache (Node 22.1+, keyed by each file's contents)
  // spares most of their compiling (the CLI turns the cache on itself; with this it uses the same place).
  process.env.NODE_COMPILE_CACHE ??= path.join(tmpdir(), 'sms-platform-test-compile-cache');
  await prepareDatabase(loadConfig(process.env), MIGRATIONS);
}
