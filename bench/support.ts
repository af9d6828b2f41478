import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import { Client } from 'pg';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { AccountsService } from '../src/accounts/accounts.service';
import { createApp } from '../src/create-app';
import { AppConfig, loadConfig } from '../src/config/app-config';
import { prepareDatabase } from '../src/database/prepare-database';
import { MIGRATIONS } from '../src/migrations';
import { percentile } from './soak-stats';
import { deleteRedisKeys } from '../test/support/test-env';

/** A benchmark's own database (dropped afterwards) and the real app on it. */
export async function startBenchApp(overrides: Partial<AppConfig> = {}): Promise<{ app: NestFastifyApplication; config: AppConfig; drop: () => Promise<void> }> {
  const base = new URL(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/sms');
  const name = `sms_bench_${Date.now().toString(36)}_${randomBytes(2).toString('hex')}`;
  base.pathname = `/${name}`;
  let opened: Awaited<ReturnType<typeof openBenchApp>>;
  try {
    opened = await openBenchApp(base, overrides);
  } catch (err) {
    // Created (and maybe migrated) before the app failed to start: dropped here, or it stays behind.
    await dropBenchDatabase(base).catch((dropErr: Error) => console.error(`benchmark database ${name} not dropped: ${dropErr.message}`));
    throw err;
  }
  const { app, config } = opened;
  return {
    app,
    config,
    drop: async () => {
      try {
        await app.close();
      } finally {
        await dropBenchDatabase(base);
      }
    },
  };
}

/** The real app on a benchmark's database (created and migrated when new), with the benchmarks' settings. */
export async function openBenchApp(databaseUrl: URL, overrides: Partial<AppConfig> = {}): Promise<{ app: NestFastifyApplication; config: AppConfig }> {
  // Benchmarks send hundreds of thousands of messages from one live account within minutes: the sending
  // brake's allowance is raised out of their way (every send still pays for its check).
  const config = loadConfig(process.env, {
    databaseUrl: databaseUrl.toString(),
    logLevel: 'silent',
    redisPrefix: benchRedisPrefix(databaseUrl),
    sendingBrakeAllowance: 100_000_000,
    ...overrides,
  });
  await prepareDatabase(config, MIGRATIONS);
  return { app: await createApp(config), config };
}

/** The Redis prefix of a benchmark's app: its own, named after its database. */
function benchRedisPrefix(databaseUrl: URL): string {
  return `smsbench:${databaseUrl.pathname.slice(1)}`;
}

/**
 * Drops a benchmark's own database (named by `databaseUrl`'s path), connecting to `postgres` to do it, and
 * its Redis keys (its queues' keys would otherwise stay behind, a few for every run).
 */
export async function dropBenchDatabase(databaseUrl: URL): Promise<void> {
  const name = decodeURIComponent(databaseUrl.pathname.replace(/^\//, ''));
  const admin = new URL(databaseUrl.toString());
  admin.pathname = '/postgres';
  const client = new Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS "${name.replace(/"/g, '""')}" WITH (FORCE)`);
  } finally {
    await client.end();
  }
  await deleteRedisKeys(loadConfig(process.env).redisUrl, benchRedisPrefix(databaseUrl));
}

export async function benchAccount(app: NestFastifyApplication, options: { credits?: number; test?: boolean; senders?: string[] } = {}) {
  const { account, key } = await app.get(AccountsService).create({
    name: 'Bench',
    isTest: options.test ?? false,
    allowDuplicateContacts: false,
    creditsHundredths: Math.round((options.credits ?? 0) * 100),
    senders: options.senders ?? ['BenchBrand'],
  });
  return { accountId: account.id, auth: `Basic ${Buffer.from(`${key.username}:${key.password}`).toString('base64')}` };
}

export function ms(start: bigint): number {
  return Number(process.hrtime.bigint() - start) / 1e6;
}

export function stats(samples: number[]): { p50: number; p99: number; max: number; min: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  return { p50: sorted[Math.floor(sorted.length / 2)], p99: percentile(sorted, 99), max: sorted[sorted.length - 1], min: sorted[0] };
}

export function fmt(n: number): string {
  return n.toFixed(n < 10 ? 2 : 1);
}

export function argValue(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? Number(process.argv[at + 1]) : fallback;
}

/** A loopback port nothing listens on right now (for a peer process that must be told its port). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Polls until the condition holds; throws with what it waited for after the timeout. */
export async function until(condition: () => Promise<boolean>, what: string, timeoutMs = 30_000, everyMs = 50): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
