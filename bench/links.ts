import type { AddressInfo } from 'node:net';
import { Agent, request } from 'node:http';
import { DataSource } from 'typeorm';
import { LinkClicksService } from '../src/links/link-clicks.service';
import { argValue, benchAccount, fmt, ms, startBenchApp } from './support';

/**
 * npm run bench:links [-- --clicks N] [-- --concurrency C]
 * One campaign of 10000 recipients sent with shorten_urls; then N clicks (default 10000, one per
 * recipient's link, as when a campaign is opened at once) over real HTTP at concurrency C (default 50).
 * Prints redirects per second and the p50/p99/max latency; then folds the appended clicks into the
 * links' counters and checks every click was counted once.
 */
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

    const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
    const latencies: number[] = [];
    let next = 0;
    const follow = (code: string) =>
      new Promise<number>((resolve, reject) => {
        const req = request({ host: '127.0.0.1', port, path: `/${code}`, agent, headers: { 'user-agent': 'Mozilla/5.0 (Linux; Android 14) Mobile Safari/537.36' } }, (r) => {
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

    const sorted = [...latencies].sort((a, b) => a - b);
    const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
    console.log(`GET /{code}, ${clicks} clicks on one campaign's ${codes.length} links at concurrency ${concurrency}: ${fmt((clicks / elapsed) * 1000)} redirects/s`);
    console.log(`  latency p50 ${fmt(at(0.5))} ms, p99 ${fmt(at(0.99))} ms, max ${fmt(sorted[sorted.length - 1])} ms; wall ${fmt(elapsed)} ms`);

    const foldStart = process.hrtime.bigint();
    const folded = await bench.app.get(LinkClicksService).foldAll();
    console.log(`  folding ${folded} appended clicks into the links' counters: ${fmt(ms(foldStart))} ms`);
    const [{ total }] = await bench.app.get(DataSource).query(`SELECT sum(clicks)::int AS total FROM short_links WHERE account_id = $1`, [accountId]);
    if (total !== clicks) throw new Error(`counted ${total} clicks, expected ${clicks}`);
    console.log(`  counted: ${total} clicks (every click once)`);
  } finally {
    await bench.drop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
