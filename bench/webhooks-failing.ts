import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { DataSource } from 'typeorm';
import { argValue, benchAccount, fmt, startBenchApp, until } from './support';

/**
 * npm run bench:webhooks -- --failing [--events 500] [--answer-ms 900] [--timeout-ms 1000]
 * A receiver that always fails, slowly (500 after --answer-ms, just inside the timeout), for a burst of
 * events on this machine's worker: every event must use up exactly its 10 retries, each attempt number
 * recorded once, each retry no sooner than its delay. With 32 requests per host at once and 256 queued
 * behind them, an event waits up to 8 answers in the queue: longer than its lease (4 × the timeout).
 * Prints attempts per event, repeated attempt numbers, requests the receiver saw, and the retry gaps.
 */
export async function failingReceiverRun(): Promise<void> {
  const total = argValue('events', 500);
  const answerMs = argValue('answer-ms', 900);
  const timeoutMs = argValue('timeout-ms', 1000);
  const [base, max, retries] = [1000, 4000, 10];
  const arrivals = new Map<string, number[]>();
  const receiver = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const id = String(req.headers['x-mm-event-id']);
      arrivals.set(id, [...(arrivals.get(id) ?? []), Date.now()]);
      setTimeout(() => res.writeHead(500).end(), answerMs);
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const bench = await startBenchApp({
    webhookAllowPrivate: true,
    webhookTimeoutMs: timeoutMs,
    webhookRetryBaseMs: base,
    webhookRetryMaxMs: max,
    webhookMaxRetries: retries,
    sweepIntervalMs: 500,
  });
  const ds = bench.app.get(DataSource);
  try {
    const { accountId } = await benchAccount(bench.app, { test: true });
    await ds.query(`UPDATE accounts SET webhook_status_url = $2 WHERE id = $1`, [accountId, `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/fails`]);
    const started = Date.now();
    await ds.query(`INSERT INTO webhook_events (account_id, kind, body) SELECT $1, 'status', '{"n":' || n || '}' FROM generate_series(1, $2) AS n`, [accountId, total]);
    await until(
      async () => (await ds.query(`SELECT count(*)::int AS open FROM webhook_events WHERE state = 'pending'`))[0].open === 0,
      'every event to use up its retries',
      3_600_000,
      500,
    );
    const seconds = (Date.now() - started) / 1000;
    const perEvent: Array<{ attempts: number; events: number }> = await ds.query(
      `SELECT attempts, count(*)::int AS events FROM (SELECT event_id, count(*)::int AS attempts FROM webhook_attempts GROUP BY event_id) x GROUP BY attempts ORDER BY attempts`,
    );
    const [{ repeated }] = await ds.query(`SELECT count(*)::int AS repeated FROM (SELECT 1 FROM webhook_attempts GROUP BY event_id, attempt HAVING count(*) > 1) x`);
    const [{ rows, highest }] = await ds.query(`SELECT count(*)::int AS rows, max(attempts)::int AS highest FROM webhook_events`);
    const requests = [...arrivals.values()].reduce((n, list) => n + list.length, 0);
    const ratios = [...arrivals.values()].flatMap((list) => list.slice(1).map((at, i) => (at - list[i]) / Math.min(base * 2 ** i, max)));
    const early = ratios.filter((r) => r < 0.8).length;
    console.log(`failing receiver (500 after ${answerMs} ms, timeout ${timeoutMs} ms, lease ${timeoutMs * 4} ms): ${total} events used up their retries in ${fmt(seconds)} s`);
    console.log(`  attempts per event: ${perEvent.map((p) => `${p.attempts} × ${p.events} events`).join(', ')} (documented: ${retries + 1})`);
    console.log(`  (event, attempt) pairs recorded more than once: ${repeated}; highest counted attempts of an event: ${highest}; events: ${rows}`);
    console.log(`  requests the receiver saw: ${requests} (${fmt(requests / total)} per event)`);
    console.log(`  retry gaps / scheduled delay: min ${fmt(Math.min(...ratios))}, ${early} of ${ratios.length} below the 0.8 jitter floor`);
  } finally {
    await bench.drop();
    receiver.closeAllConnections();
    receiver.close();
  }
}
