import type { AddressInfo } from 'node:net';
import { DataSource } from 'typeorm';
import { CampaignReadsRepository } from '../src/messaging/campaign-reads.repository';
import { MessageExportRepository } from '../src/messaging/message-export.repository';
import { UserLinksService } from '../src/users/user-links.service';
import { UsersService } from '../src/users/users.service';
import { argValue, benchAccount, fmt, ms, startBenchApp } from './support';

const PASSWORD = 'bench export password';
/** Rows inserted per statement while seeding (set-based, one INSERT … SELECT FROM generate_series each). */
const SEED_CHUNK = 200_000;
/** Seeded messages are two seconds apart, from this instant on: a million span 23 days. */
const SEED_START = '2026-10-01T00:00:00Z';

/** Every Set-Cookie of a response, as one Cookie header to send back. */
function cookiesOf(response: Response, jar: Map<string, string>): Map<string, string> {
  for (const line of response.headers.getSetCookie()) {
    const pair = line.split(';')[0];
    jar.set(pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1));
  }
  return jar;
}
const cookieHeader = (jar: Map<string, string>) => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');

/**
 * npm run bench:export [-- --rows N]
 * Seeds N (default 1000000) messages in one account (set-based; 40% with a delivered or failed part), signs
 * a dashboard user in over HTTP and downloads GET /reports/export.csv for the whole period through a real
 * socket, reading the stream as a browser would. Prints the seed time, the export's time to first byte and
 * total, rows and bytes, and this process's memory (it is the server): RSS and heap before, and their peaks
 * sampled every 50 ms during the export. Then, the same messages being one send, the campaign reads' times:
 * its live counts (the page's and each progress poll's statement), its outcomes by minute, its whole page.
 */
async function main() {
  const rows = argValue('rows', 1_000_000);
  // The API role runs no dispatcher: the seeded pending messages stay as seeded.
  const bench = await startBenchApp({ appRole: 'api' });
  try {
    const { accountId } = await benchAccount(bench.app);
    const ds = bench.app.get(DataSource);
    let t = process.hrtime.bigint();
    const [send] = await ds.query(`INSERT INTO sends (account_id, kind, message_count, total_cost) VALUES ($1, 'batch', $2, $3) RETURNING id`, [accountId, rows, rows * 100]);
    for (let first = 1; first <= rows; first += SEED_CHUNK) {
      const last = Math.min(rows, first + SEED_CHUNK - 1);
      await ds.query(
        `INSERT INTO messages (id, account_id, send_id, to_number, sender, sender_type, body, status, encoding, parts, cost, is_test, dispatch_at, created_at, custom_ref)
         SELECT gen_random_uuid(), $1, $2, '614' || lpad((10000000 + i)::text, 8, '0'), 'BenchBrand', 'alpha',
                'Hi customer ' || i || ', your order is ready, "collect" it today', 'pending', 'gsm7', 1, 100, false,
                $5::timestamptz + i * interval '2 seconds', $5::timestamptz + i * interval '2 seconds', CASE WHEN i % 10 = 0 THEN 'ref-' || i END
           FROM generate_series($3::int, $4::int) i`,
        [accountId, send.id, first, last, SEED_START],
      );
    }
    await ds.query(
      `INSERT INTO message_parts (message_id, part_number, account_id, total_parts, carrier_id, smsc_id, status, receipt_at, receipt_stat, receipt_err)
       SELECT id, 1, account_id, 1, 0, 'smsc-' || seq, CASE WHEN seq % 20 = 0 THEN 'failed' ELSE 'delivered' END, created_at + interval '5 seconds',
              CASE WHEN seq % 20 = 0 THEN 'UNDELIV' ELSE 'DELIVRD' END, CASE WHEN seq % 20 = 0 THEN '011' ELSE '000' END
         FROM messages WHERE account_id = $1 AND seq % 5 < 2`,
      [accountId],
    );
    await ds.query('ANALYZE messages; ANALYZE message_parts');
    console.log(`seeded ${rows} messages (40% with a part) in ${fmt(ms(t) / 1000)} s`);

    const email = `bench.export.${process.pid}@example.com.au`;
    const { link } = await bench.app.get(UsersService).createByOperator(accountId, { email, owner: true });
    await bench.app.get(UserLinksService).setPassword(link.split('/').pop()!, PASSWORD, PASSWORD, '127.0.0.1');
    await bench.app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(bench.app.getHttpServer().address() as AddressInfo).port}`;
    const jar = new Map<string, string>();
    const form = await fetch(`${base}/sign-in`, { headers: { accept: 'text/html' } });
    cookiesOf(form, jar);
    const csrf = /name="_csrf" value="([^"]+)"/.exec(await form.text())![1];
    const signIn = await fetch(`${base}/sign-in`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: cookieHeader(jar), accept: 'text/html' },
      body: new URLSearchParams({ _csrf: csrf, email, password: PASSWORD }).toString(),
    });
    if (signIn.status !== 303) throw new Error(`sign-in answered ${signIn.status}`);
    cookiesOf(signIn, jar);

    // The same cursor without CSV or HTTP: how much of the export is PostgreSQL and the driver.
    t = process.hrtime.bigint();
    let cursorRows = 0;
    for await (const batch of bench.app.get(MessageExportRepository).rows(accountId, { from: new Date('2026-09-29T14:00:00Z') })) cursorRows += batch.length;
    console.log(`cursor alone (SQL, driver, no CSV, no HTTP): ${cursorRows} rows in ${fmt(ms(t) / 1000)} s`);

    global.gc?.();
    const before = process.memoryUsage();
    let peakRss = before.rss;
    let peakHeap = before.heapUsed;
    const sampler = setInterval(() => {
      const now = process.memoryUsage();
      peakRss = Math.max(peakRss, now.rss);
      peakHeap = Math.max(peakHeap, now.heapUsed);
    }, 50);
    t = process.hrtime.bigint();
    const response = await fetch(`${base}/reports/export.csv?from=2026-09-30&to=2026-10-31`, { headers: { cookie: cookieHeader(jar) } });
    if (response.status !== 200) throw new Error(`export answered ${response.status}: ${await response.text()}`);
    let firstByteMs = 0;
    let bytes = 0;
    let lines = 0;
    const reader = response.body!.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (bytes === 0) firstByteMs = ms(t);
      bytes += value.length;
      for (let i = 0; i < value.length; i++) if (value[i] === 10) lines++;
    }
    const totalMs = ms(t);
    clearInterval(sampler);
    const mb = (n: number) => `${fmt(n / 1024 / 1024)} MB`;
    console.log(
      `export: ${lines - 1} rows, ${mb(bytes)} of CSV in ${fmt(totalMs / 1000)} s (first byte after ${fmt(firstByteMs)} ms; ${fmt(((lines - 1) / totalMs) * 1000)} rows/s)`,
    );
    console.log(
      `memory of the serving process: RSS ${mb(before.rss)} before, peak ${mb(peakRss)} during (+${mb(peakRss - before.rss)}); heap used ${mb(before.heapUsed)} before, peak ${mb(peakHeap)}`,
    );
    if (lines - 1 !== rows) throw new Error(`expected ${rows} rows, got ${lines - 1}`);

    // The same million as one campaign: its counts are read live (message status is read, never written
    // after dispatch), by its page and every progress poll; the page also charts its outcomes by minute.
    const campaigns = bench.app.get(CampaignReadsRepository);
    t = process.hrtime.bigint();
    const campaign = (await campaigns.one(accountId, Number(send.id)))!;
    const countMs = ms(t);
    t = process.hrtime.bigint();
    const minutes = await campaigns.outcomesByMinute(accountId, Number(send.id));
    const outcomesMs = ms(t);
    t = process.hrtime.bigint();
    const page = await fetch(`${base}/campaigns/${send.id}`, { headers: { cookie: cookieHeader(jar), accept: 'text/html' } });
    await page.text();
    console.log(
      `campaign of ${campaign.message_count} messages: counts (progress.json's statement) ${fmt(countMs)} ms (delivered ${campaign.counts.delivered}, failed ${campaign.counts.failed}); ` +
        `outcomes by minute ${fmt(outcomesMs)} ms (${minutes.length} minutes); its page ${page.status} in ${fmt(ms(t))} ms`,
    );
  } finally {
    await bench.drop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
