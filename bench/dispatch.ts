import { spawn } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { DataSource } from 'typeorm';
import { argValue, benchAccount, fmt, ms, startBenchApp, stats } from './support';

/**
 * npm run bench:dispatch [-- --messages 50000 --binds 4 --window 100]
 * A campaign of 5 requests × 10000 messages on a live account, through the HTTP API, to the bundled
 * SMSC simulator (a separate process, real SMPP on loopback), waiting for every receipt. Prints
 * accepted→all-submitted and accepted→all-delivered times, sustained submissions per second, and the
 * latency of other API requests made during the run.
 */
async function main() {
  const total = argValue('messages', 50_000);
  const binds = argValue('binds', 4);
  const window = argValue('window', 100);
  const perRequest = 10_000;

  const sim = spawn(
    process.execPath,
    [path.resolve(__dirname, '../src/smsc-sim/main.js'), '--port', '0', '--system-id', 'bench', '--password', 'benchpw', '--receipt-delay-ms', '1000'],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const simPort = await new Promise<number>((resolve, reject) => {
    sim.stdout!.on('data', (chunk: Buffer) => {
      for (const line of chunk.toString().split('\n')) if (line.includes('"listening"')) resolve(JSON.parse(line).port);
    });
    sim.on('exit', () => reject(new Error('simulator exited')));
  });

  const bench = await startBenchApp({
    smppHost: '127.0.0.1',
    smppPort: simPort,
    smppSystemId: 'bench',
    smppPassword: 'benchpw',
    smppBinds: binds,
    smppWindow: window,
    smppTpsPerBind: 0,
  });
  try {
    await bench.app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(bench.app.getHttpServer().address() as AddressInfo).port}`;
    const { auth } = await benchAccount(bench.app, { credits: 1_000_000, senders: ['61400000001'] });
    const other = await benchAccount(bench.app, { credits: 1, senders: ['Other'] });
    const ds = bench.app.get(DataSource);
    // Let the binds come up before the clock starts.
    await new Promise((r) => setTimeout(r, 1000));

    const probeLatencies: number[] = [];
    let probing = true;
    const probe = (async () => {
      while (probing) {
        const s = process.hrtime.bigint();
        const res = await fetch(`${base}/v1/account`, { headers: { authorization: other.auth } });
        await res.arrayBuffer();
        probeLatencies.push(ms(s));
        await new Promise((r) => setTimeout(r, 50));
      }
    })();

    const start = process.hrtime.bigint();
    const requests = Array.from({ length: total / perRequest }, (_, r) =>
      fetch(`${base}/v1/messages`, {
        method: 'POST',
        headers: { authorization: auth, 'content-type': 'application/json' },
        body: JSON.stringify({
          messages: Array.from({ length: perRequest }, (_, i) => ({
            to: `04${String(10_000_000 + r * perRequest + i).slice(-8)}`,
            message: `Campaign message ${i}: your code is ${1000 + (i % 9000)}`,
            sender: '61400000001',
          })),
        }),
      }).then(async (res) => {
        if (res.status !== 200) throw new Error(`send ${r}: ${res.status} ${await res.text()}`);
        await res.arrayBuffer();
      }),
    );
    await Promise.all(requests);
    const acceptedMs = ms(start);

    let submittedMs = 0;
    for (;;) {
      const [{ submitted, delivered }] = await ds.query(
        `SELECT count(*) FILTER (WHERE status IN ('sent', 'delivered', 'failed'))::int AS submitted, count(*) FILTER (WHERE status IN ('delivered', 'failed'))::int AS delivered FROM messages`,
      );
      if (!submittedMs && submitted >= total) submittedMs = ms(start);
      if (delivered >= total) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const deliveredMs = ms(start);
    probing = false;
    await probe;
    const [{ first, last }] = await ds.query(`SELECT min(submitted_at) AS first, max(submitted_at) AS last FROM message_parts`);
    const submitSpan = (new Date(last).getTime() - new Date(first).getTime()) / 1000;
    const p = stats(probeLatencies);

    console.log(`campaign: ${total} messages in ${total / perRequest} requests of ${perRequest}, SMPP ${binds} binds × window ${window}, simulator receipts after 1 s`);
    console.log(`  all accepted (5 responses)          ${fmt(acceptedMs / 1000)} s`);
    console.log(`  start → all submitted (recorded)     ${fmt(submittedMs / 1000)} s`);
    console.log(`  start → all delivered (receipts)     ${fmt(deliveredMs / 1000)} s`);
    console.log(`  sustained submissions                ${Math.round(total / submitSpan)} per second (first to last submit_sm_resp recorded: ${fmt(submitSpan)} s)`);
    console.log(`  end to end                           ${Math.round(total / (submittedMs / 1000))} per second (accept + dispatch, from the first request)`);
    console.log(`  GET /v1/account during the run      p50 ${fmt(p.p50)} ms, max ${fmt(p.max)} ms over ${probeLatencies.length} requests`);
  } finally {
    await bench.drop();
    sim.kill('SIGTERM');
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
