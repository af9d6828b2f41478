import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { Client } from 'pg';
import Redis from 'ioredis';
import { loadConfig } from '../src/config/app-config';
import { prepareDatabase } from '../src/database/prepare-database';
import { MIGRATIONS } from '../src/migrations';
import { SmscSimulator } from '../src/smsc-sim/smsc-simulator';
import { argValue, dropBenchDatabase, freePort, until } from './support';
import { Mix, pickOperation, SoakAccount } from './soak-mix';
import { MinuteStats, percentile } from './soak-stats';

/**
 * npm run soak -- --minutes N [--rate R] [--accounts A]
 * One instance of the service (`node dist/src/main.js`, APP_ROLE=all) on its own database, live
 * accounts dispatching over SMPP to the bundled SMSC simulator, receipts posted to a local webhook
 * receiver. A steady mix at R requests per second (default 20): sends (some scheduled), lookups,
 * list-sends, cancellations, account and contact reads. Every minute it prints latency percentiles,
 * errors, the instance's RSS, receipts applied and webhooks received; at the end, whether latency or
 * memory drifted, and `ledger:verify` on what the run did.
 */
const SIM = { systemId: 'soak', password: 'soakpass' };

async function main() {
  const minutes = argValue('minutes', 20);
  const rate = argValue('rate', 20);
  const accountCount = argValue('accounts', 8);
  const name = `sms_soak_${Date.now().toString(36)}_${randomBytes(2).toString('hex')}`;
  const databaseUrl = new URL(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/sms');
  databaseUrl.pathname = `/${name}`;
  const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  const redisPrefix = `smssoak:${name}`;
  await prepareDatabase(loadConfig(process.env, { databaseUrl: databaseUrl.toString(), redisPrefix, logLevel: 'silent' }), MIGRATIONS);

  const smsc = new SmscSimulator({ ...SIM, receiptDelayMs: 1000 });
  const smscPort = await smsc.start();
  let webhooks = 0;
  const receiver = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      webhooks++;
      res.writeHead(200).end();
    });
  });
  const receiverPort = await listen(receiver);
  const port = await freePort();
  const env = {
    ...process.env,
    DATABASE_URL: databaseUrl.toString(),
    REDIS_URL: redisUrl,
    REDIS_PREFIX: redisPrefix,
    LOG_LEVEL: 'warn',
  };
  const service = spawn(process.execPath, [path.resolve(__dirname, '../src/main.js')], {
    env: {
      ...env,
      APP_ROLE: 'all',
      PORT: String(port),
      SMPP_HOST: '127.0.0.1',
      SMPP_PORT: String(smscPort),
      SMPP_SYSTEM_ID: SIM.systemId,
      SMPP_PASSWORD: SIM.password,
      WEBHOOK_ALLOW_PRIVATE: 'true',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  const db = new Client({ connectionString: databaseUrl.toString() });
  try {
    await until(async () => (await fetch(`${base}/health`).catch(() => null))?.status === 200, 'the service to become healthy', 60_000, 200);
    await db.connect();
    const accounts = await Promise.all(Array.from({ length: accountCount }, (_, i) => soakAccount(env, base, i, receiverPort)));
    console.log(`soak: ${minutes} min at ${rate} requests/s against one instance (pid ${service.pid}), ${accountCount} live accounts, SMPP simulator, webhook receiver`);
    console.log('minute  requests  non-2xx                p50 ms  p95 ms  p99 ms  max ms  rss MB  parts delivered  webhooks (in the minute)');

    const mix = new Mix(accounts);
    const perMinute: MinuteStats[] = [];
    const start = Date.now();
    let current = new MinuteStats(1);
    let fired = 0;
    const pending = new Set<Promise<void>>();
    let totals = { delivered: 0, webhooks: 0 };
    for (;;) {
      const due = start + (fired * 1000) / rate;
      if (due - start >= minutes * 60_000) break;
      if (due > Date.now()) await sleep(due - Date.now());
      const minute = Math.floor((due - start) / 60_000) + 1;
      if (minute > current.minute) {
        totals = await closeMinute(current, service, db, webhooks, totals);
        perMinute.push(current);
        current = new MinuteStats(minute);
      }
      const stats = current;
      fired++;
      const run: Promise<void> = runOperation(base, mix, pickOperation(fired), stats).finally(() => pending.delete(run));
      pending.add(run);
    }
    await Promise.all(pending);
    await closeMinute(current, service, db, webhooks, totals);
    perMinute.push(current);
    summarise(perMinute);

    const ledger = spawnSync(process.execPath, [path.resolve(__dirname, '../src/cli.js'), 'ledger:verify'], { env: { ...env, LOG_LEVEL: 'silent' }, encoding: 'utf8' });
    const report = JSON.parse(ledger.stdout || '{}') as { ok?: boolean; violations?: unknown[]; accounts_checked?: number };
    console.log(`ledger:verify after the soak: exit ${ledger.status}, ${report.accounts_checked} accounts, ${report.violations?.length ?? '?'} violation(s)`);
  } finally {
    service.kill('SIGTERM');
    await new Promise((r) => service.once('exit', r));
    await db.end().catch(() => undefined);
    await smsc.stop();
    receiver.close();
    await cleanUp(databaseUrl, redisUrl, redisPrefix);
  }
}

async function runOperation(base: string, mix: Mix, kind: ReturnType<typeof pickOperation>, stats: MinuteStats): Promise<void> {
  const request = mix.request(kind);
  if (!request) return;
  const started = performance.now();
  try {
    const res = await fetch(`${base}${request.path}`, {
      method: request.method,
      headers: { authorization: request.account.auth, ...(request.body ? { 'content-type': 'application/json' } : {}) },
      body: request.body ? JSON.stringify(request.body) : undefined,
    });
    const body = (await res.json()) as Record<string, unknown>;
    stats.record(performance.now() - started, res.status);
    if (res.ok) mix.remember(kind, request, body);
  } catch {
    stats.record(performance.now() - started, 0);
  }
}

/** Fills in the minute's RSS and what was delivered in it; returns the running totals. */
async function closeMinute(stats: MinuteStats, service: ChildProcess, db: Client, webhooks: number, before: { delivered: number; webhooks: number }) {
  const delivered = Number((await db.query(`SELECT count(*) AS n FROM message_parts WHERE status = 'delivered'`)).rows[0].n);
  stats.rssMb = rssMb(service.pid!);
  stats.delivered = delivered - before.delivered;
  stats.webhooks = webhooks - before.webhooks;
  console.log(stats.line());
  return { delivered, webhooks };
}

/** Drift: the first and last thirds of the run compared (latency percentiles over all their requests), and RSS's trend. */
function summarise(minutes: MinuteStats[]): void {
  const full = minutes.filter((m) => m.count > 0);
  if (full.length < 3) return;
  const third = Math.max(1, Math.floor(full.length / 3));
  const pooled = (ms: MinuteStats[]) => ms.flatMap((m) => m.latencies);
  const [early, late] = [pooled(full.slice(0, third)), pooled(full.slice(-third))];
  const q = (samples: number[], p: number) => percentile(samples, p).toFixed(1);
  const slope = rssSlope(full.slice(1));
  console.log(
    `drift (first ${third} min vs last ${third} min): p50 ${q(early, 50)} → ${q(late, 50)} ms, p95 ${q(early, 95)} → ${q(late, 95)} ms, p99 ${q(early, 99)} → ${q(late, 99)} ms`,
  );
  console.log(`       rss ${full[0].rssMb.toFixed(0)} → ${full[full.length - 1].rssMb.toFixed(0)} MB; least-squares slope from minute 2: ${slope.toFixed(2)} MB/min`);
  console.log(`       requests ${full.reduce((s, m) => s + m.count, 0)}, non-2xx ${JSON.stringify(mergeStatuses(full))}`);
}

function rssSlope(minutes: MinuteStats[]): number {
  const n = minutes.length;
  if (n < 2) return 0;
  const xs = minutes.map((m) => m.minute);
  const ys = minutes.map((m) => m.rssMb);
  const mx = xs.reduce((a, b) => a + b, 0) / n;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  const num = xs.reduce((s, x, i) => s + (x - mx) * (ys[i] - my), 0);
  const den = xs.reduce((s, x) => s + (x - mx) ** 2, 0);
  return num / den;
}

function mergeStatuses(minutes: MinuteStats[]): Record<number, number> {
  const out: Record<number, number> = {};
  for (const m of minutes) for (const [s, n] of Object.entries(m.errors)) out[Number(s)] = (out[Number(s)] ?? 0) + n;
  return out;
}

function rssMb(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) / 1024 : 0;
}

async function soakAccount(env: NodeJS.ProcessEnv, base: string, i: number, receiverPort: number): Promise<SoakAccount> {
  const cli = spawnSync(process.execPath, [path.resolve(__dirname, '../src/cli.js'), 'account:create', '--name', `Soak ${i}`, '--credits', '100000000', '--sender', 'Brand'], {
    env: { ...env, LOG_LEVEL: 'silent' },
    encoding: 'utf8',
  });
  const created = JSON.parse(cli.stdout) as { account_id: number; api_username: string; api_password: string };
  const auth = `Basic ${Buffer.from(`${created.api_username}:${created.api_password}`).toString('base64')}`;
  const call = (method: string, p: string, body: unknown) =>
    fetch(`${base}${p}`, { method, headers: { authorization: auth, 'content-type': 'application/json' }, body: JSON.stringify(body) }).then(
      (r) => r.json() as Promise<Record<string, unknown>>,
    );
  await call('PATCH', '/v1/webhooks', { status: `http://127.0.0.1:${receiverPort}/receipts` });
  const list = await call('POST', '/v1/lists', { name: 'Soak list' });
  for (let c = 0; c < 50; c++) await call('POST', '/v1/list-contacts', { list_id: list.list_id, number: `04${String(50_000_000 + i * 1000 + c)}`, first_name: `Ann${c}` });
  return { accountId: created.account_id, auth, listId: list.list_id as number, index: i };
}

function listen(server: http.Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as net.AddressInfo).port)));
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function cleanUp(databaseUrl: URL, redisUrl: string, prefix: string): Promise<void> {
  await dropBenchDatabase(databaseUrl);
  const redis = new Redis(redisUrl);
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
    cursor = next;
    if (keys.length) await redis.del(...keys);
  } while (cursor !== '0');
  redis.disconnect();
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
