import type { AddressInfo } from 'node:net';
import { Agent, request } from 'node:http';
import Fastify from 'fastify';
import { Pool } from 'pg';
import { DataSource } from 'typeorm';
import { AppConfig } from '../src/config/app-config';
import { LinkClicksService } from '../src/links/link-clicks.service';
import { isPreviewHit } from '../src/links/preview-agents';
import { argValue, benchAccount, fmt, ms, startBenchApp } from './support';
import { cpuBetween, cpuSnapshot, loadAverages } from './dispatch-measures';
import { reportResult } from './bench-result';

/**
 * npm run bench:links [-- --clicks N] [-- --concurrency C]
 * One campaign of 10000 recipients sent with shorten_urls; then N clicks (default 10000, one per
 * recipient's link, as when a campaign is opened at once) over real HTTP at concurrency C (default 50).
 * Prints redirects per second and the p50/p99/max latency; then folds the appended clicks into the
 * links' counters and checks every click was counted once.
 * The floor, in the same run: a bare Fastify route answering 302 after the same statement (the one-row
 * indexed lookup of short_links by code and the one-row append to link_click_events) on the bench's own
 * database, from a plain pg pool as large as the product's, driven by the same client loop; it checks
 * every one of its clicks was appended once, and prints the ratio.
 */
const DAY_MS = 24 * 60 * 60 * 1000;
const USER_AGENT = 'Mozilla/5.0 (Linux; Android 14) Mobile Safari/537.36';

/** N GETs of the codes in turn, C at a time over keep-alive connections; every answer must be a 302. */
async function clickAll(port: number, codes: string[], clicks: number, concurrency: number): Promise<{ latencies: number[]; elapsed: number }> {
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  const latencies: number[] = [];
  let next = 0;
  const follow = (code: string) =>
    new Promise<number>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, path: `/${code}`, agent, headers: { 'user-agent': USER_AGENT } }, (r) => {
        r.resume();
        r.on('end', () => resolve(r.statusCode ?? 0));
      });
      req.on('error', reject);
      req.end();
    });
  const worker = async () => {
    while (next < clicks) {
      const code = codes[next++ % codes.length];
      const start = process.hrtime.bigint();
      const status = await follow(code);
      latencies.push(ms(start));
      if (status !== 302) throw new Error(`GET /${code} answered ${status}`);
    }
  };
  const started = process.hrtime.bigint();
  await Promise.all(Array.from({ length: concurrency }, worker));
  const elapsed = ms(started);
  agent.destroy();
  return { latencies, elapsed };
}

function report(label: string, clicks: number, concurrency: number, run: { latencies: number[]; elapsed: number }): number {
  const sorted = [...run.latencies].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  const rate = (clicks / run.elapsed) * 1000;
  console.log(`${label}, ${clicks} clicks at concurrency ${concurrency}: ${fmt(rate)} redirects/s`);
  console.log(`  latency p50 ${fmt(at(0.5))} ms, p99 ${fmt(at(0.99))} ms, max ${fmt(sorted[sorted.length - 1])} ms; wall ${fmt(run.elapsed)} ms`);
  return rate;
}

/** The floor's server: one route, one statement (a named prepared statement), nothing else. */
async function startFloor(config: AppConfig) {
  const pool = new Pool({ connectionString: config.databaseUrl, max: config.databasePoolSize });
  const server = Fastify({ logger: false });
  server.get<{ Params: { code: string } }>('/:code(^[0-9A-Za-z]{7}$)', async (req, reply) => {
    const { rows } = await pool.query<{ url: string }>({
      name: 'follow-short-link',
      text: `WITH link AS (SELECT code, url FROM short_links WHERE code = $1 AND kind = 'url' AND created_at >= $2),
                  hit AS (INSERT INTO link_click_events (code, preview) SELECT code, $3 FROM link)
             SELECT url FROM link`,
      values: [req.params.code, new Date(Date.now() - config.linkRetentionDays * DAY_MS), isPreviewHit(req.method, req.headers['user-agent'])],
    });
    if (rows.length === 0) return reply.code(404).send();
    return reply.code(302).header('location', rows[0].url).send();
  });
  await server.listen({ port: 0, host: '127.0.0.1' });
  return {
    port: (server.server.address() as AddressInfo).port,
    close: async () => {
      await server.close();
      await pool.end();
    },
  };
}

/** CPU per click of this process (client loop and server) and the database's PostgreSQL backends. */
function cpuPerClick(use: { node: number; postgres: number }, clicks: number): { total: number; line: string } {
  const per = (us: number) => Math.round(us / clicks);
  return { total: per(use.node + use.postgres), line: `${per(use.node + use.postgres)} µs (node ${per(use.node)}, PostgreSQL ${per(use.postgres)})` };
}

async function main() {
  const clicks = argValue('clicks', 10_000);
  const concurrency = argValue('concurrency', 50);
  const bench = await startBenchApp({ appRole: 'api', shortLinkBase: 'https://sms.bench', clickFoldIntervalMs: 3_600_000 });
  try {
    await bench.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (bench.app.getHttpServer().address() as AddressInfo).port;
    const { accountId, auth } = await benchAccount(bench.app, { test: true, senders: ['BenchBrand'] });

    const campaign = {
      shorten_urls: true,
      messages: Array.from({ length: 10_000 }, (_, i) => ({
        to: `04${String(20_000_000 + i).slice(-8)}`,
        sender: 'BenchBrand',
        message: `Spring sale: 20% off this week at https://shop.example/sale?c=spring&r=${i}`,
      })),
    };
    const res = await fetch(`http://127.0.0.1:${port}/v1/messages`, {
      method: 'POST',
      headers: { authorization: auth, 'content-type': 'application/json' },
      body: JSON.stringify(campaign),
    });
    const sent = (await res.json()) as { send_id: number; results: Array<{ message: string }> };
    if (res.status !== 200) throw new Error(`campaign: ${res.status}`);
    const codes = sent.results.map((r) => /\/([0-9A-Za-z]{7})$/.exec(r.message)![1]);

    const ds = bench.app.get(DataSource);
    console.log(`load average ${loadAverages()}`);
    let cpu = await cpuSnapshot(ds, 0);
    const product = report(`GET /{code}, one campaign's ${codes.length} links`, clicks, concurrency, await clickAll(port, codes, clicks, concurrency));
    const productCpu = cpuPerClick(cpuBetween(cpu, await cpuSnapshot(ds, 0)), clicks);
    console.log(`  CPU per click: ${productCpu.line}`);

    const foldStart = process.hrtime.bigint();
    const folded = await bench.app.get(LinkClicksService).foldAll();
    console.log(`  folding ${folded} appended clicks into the links' counters: ${fmt(ms(foldStart))} ms`);
    const [{ total }] = await ds.query(`SELECT sum(clicks)::int AS total FROM short_links WHERE account_id = $1`, [accountId]);
    if (total !== clicks) throw new Error(`counted ${total} clicks, expected ${clicks}`);
    console.log(`  counted: ${total} clicks (every click once)`);

    const floorServer = await startFloor(bench.config);
    let floor: number;
    cpu = await cpuSnapshot(ds, 0);
    let floorCpu: { total: number; line: string };
    try {
      floor = report('floor: bare Fastify GET /:code, same lookup and append, plain pg pool', clicks, concurrency, await clickAll(floorServer.port, codes, clicks, concurrency));
      // Before its pool closes: a backend that has gone is not counted.
      floorCpu = cpuPerClick(cpuBetween(cpu, await cpuSnapshot(ds, 0)), clicks);
    } finally {
      await floorServer.close();
    }
    console.log(`  CPU per click: ${floorCpu.line} (this process: the client loop and the floor's server)`);
    const [{ appended }] = await ds.query(`SELECT count(*) FILTER (WHERE NOT preview)::int AS appended FROM link_click_events`);
    if (appended !== clicks) throw new Error(`the floor appended ${appended} clicks, expected ${clicks}`);
    console.log(`  appended: ${appended} clicks (every click once)`);
    console.log(`  floor rate / product rate = ${fmt(floor / product)}× (CPU per click ${fmt(productCpu.total / floorCpu.total)}×; load average ${loadAverages()})`);
    reportResult({ ratio: floor / product });
  } finally {
    await bench.drop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
