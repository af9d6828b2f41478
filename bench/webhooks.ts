import { ChildProcess, fork } from 'node:child_process';
import path from 'node:path';
import { DataSource } from 'typeorm';
import { Pool } from 'undici';
import { keyLookupsOnly, sql } from '../src/database/sql';
import { UnitOfWork } from '../src/database/unit-of-work';
import type { PartStatusChange } from '../src/webhooks/webhook-events.service';
import { WebhookEventsService } from '../src/webhooks/webhook-events.service';
import { signWebhook } from '../src/webhooks/signature';
import { argValue, benchAccount, fmt, ms, startBenchApp } from './support';
import { cpuBetween, CpuSnapshot, cpuSnapshot, loadAverages } from './dispatch-measures';
import { failingReceiverRun } from './webhooks-failing';
import { reportResult } from './bench-result';

/**
 * npm run bench:webhooks [-- --events 50000]
 * 1. Creates N receipt webhook events (one transaction, as a burst of receipts would) for an account
 *    whose status URL is a local receiver in another process, and times their delivery.
 *    The floor, in the same run: the same N bodies, signed the same way (the product's signWebhook), with
 *    the same headers, POSTed to the same receiver from a plain undici Pool with as many connections and
 *    requests in flight as the deliverer has per host (WEBHOOK_HOST_CONCURRENCY); no database. Prints the ratio.
 * 2. Repeats with the receiver down for the first half of the run, then up: reports that every event
 *    arrived once it came back.
 * 3. The durable floor (durableFloor): the floor's POSTs plus the least database work that keeps every
 *    event and logs every attempt, and run 1's time over it.
 * With --failing, instead: a receiver that always fails, slowly (bench/webhooks-failing.ts): attempts per
 * event, repeated attempt numbers and retry gaps.
 */
interface Receiver {
  child: ChildProcess;
  port: number;
  counts: { requests: number; distinct: number };
}

function startReceiver(port = 0): Promise<Receiver> {
  const child = fork(path.resolve(__dirname, 'webhook-receiver.js'), [String(port)], { stdio: 'inherit' });
  const receiver = { child, port: 0, counts: { requests: 0, distinct: 0 } };
  child.on('message', (m: { listening?: number; requests?: number; distinct?: number }) => {
    if (m.requests !== undefined) receiver.counts = { requests: m.requests, distinct: m.distinct! };
  });
  return new Promise((resolve) =>
    child.on('message', (m: { listening?: number }) => {
      if (m.listening)
        resolve({
          ...receiver,
          port: m.listening,
          child,
          get counts() {
            return receiver.counts;
          },
        } as Receiver);
    }),
  );
}

/** Zeroes the receiver's counts and waits until its parent has seen the zero (reports arrive in order). */
function resetReceiver(r: Receiver): Promise<void> {
  return new Promise((resolve) => {
    const onMessage = (m: { reset?: boolean }) => {
      if (!m.reset) return;
      r.child.off('message', onMessage);
      resolve();
    };
    r.child.on('message', onMessage);
    r.child.send({ reset: true });
  });
}

async function stopReceiver(r: Receiver): Promise<void> {
  r.child.send({ stop: true });
  await new Promise((resolve) => r.child.on('exit', resolve));
}

function changes(accountId: number, count: number, tag: string): PartStatusChange[] {
  const now = Date.now();
  return Array.from({ length: count }, (_, i) => ({
    messageId: `00000000-0000-4000-8000-${tag}${String(i).padStart(12 - tag.length, '0')}`,
    partNumber: 1,
    totalParts: 1,
    status: 'delivered',
    atMs: now,
    accountId,
  }));
}

/** The messages the changes are of, stored as a send stores them (the events read their texts by key). */
async function storeMessages(ds: DataSource, accountId: number, changed: PartStatusChange[]): Promise<void> {
  const [{ id: sendId }] = await ds.query(`INSERT INTO sends (account_id, kind) VALUES ($1, 'batch') RETURNING id`, [accountId]);
  await ds.query(
    `INSERT INTO messages (id, account_id, send_id, to_number, sender, sender_type, body, custom_ref, status, encoding, parts, cost, is_test, dispatch_at)
     SELECT id, $1, $2, '614' || right(id::text, 8), 'BenchBrand', 'alphanumeric', 'Your parcel is on its way', 'bench-' || right(id::text, 6), 'pending', 'gsm7', 1, 0, true, now()
       FROM unnest($3::uuid[]) AS t(id)`,
    [accountId, sendId, changed.map((c) => c.messageId)],
  );
}

/**
 * The floor: each stored event's body POSTed once with the deliverer's headers and signature, `connections`
 * at a time over one keep-alive pool; done when the receiver has counted every body, as for the product.
 */
async function postFloor(receiver: Receiver, events: Array<{ id: number; body: string }>, secret: string, connections: number): Promise<number> {
  await resetReceiver(receiver);
  const pool = new Pool(`http://127.0.0.1:${receiver.port}`, { connections, keepAliveTimeout: 10_000 });
  let next = 0;
  const worker = async () => {
    while (next < events.length) {
      const { id, body } = events[next++];
      await postSigned(pool, id, body, secret);
    }
  };
  const start = process.hrtime.bigint();
  await Promise.all(Array.from({ length: connections }, worker));
  while (receiver.counts.distinct < events.length) await new Promise((r) => setTimeout(r, 50));
  const elapsed = ms(start);
  await pool.close();
  return elapsed;
}

/** One POST as the deliverer makes it (headers, signature); its time in ms. */
async function postSigned(pool: Pool, id: number, body: string, secret: string): Promise<number> {
  const started = performance.now();
  const timestamp = String(Math.floor(Date.now() / 1000));
  const res = await pool.request({
    path: '/status',
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'user-agent': 'sms-api-webhooks/1',
      'x-mm-event-id': String(id),
      'x-mm-timestamp': timestamp,
      'x-mm-signature': signWebhook(secret, timestamp, body),
    },
    body,
  });
  await res.body.dump();
  if (res.statusCode !== 200) throw new Error(`floor: the receiver answered ${res.statusCode}`);
  return performance.now() - started;
}

/** Outcomes a durable floor records per statement pair, as the deliverer's group commit does at most. */
const DURABLE_FLOOR_BATCH = 500;

/**
 * The durable floor: the least a deliverer that keeps every event and logs every attempt does beside the
 * floor's POSTs. The same bodies are stored as pending events by one INSERT (due never, so the product's
 * deliverer leaves them alone), POSTed as the floor posts them, and each DURABLE_FLOOR_BATCH outcomes are
 * recorded by one UPDATE of their events and one INSERT of their attempts, batch after batch. It takes no
 * claims or leases and needs no retries: what the product adds to this is the cost of its guarantees
 * (each event leased to one deliverer, attempted in order, retried) and of its own code.
 */
async function durableFloor(
  ds: DataSource,
  receiver: Receiver,
  accountId: number,
  url: string,
  bodies: string[],
  secret: string,
  connections: number,
): Promise<{ ms: number; storedMs: number }> {
  await resetReceiver(receiver);
  const pool = new Pool(`http://127.0.0.1:${receiver.port}`, { connections, keepAliveTimeout: 10_000 });
  const start = process.hrtime.bigint();
  // Through the product's statement helper, which writes large array parameters as the product does.
  const { rows: stored } = await sql<{ id: string }>(
    ds,
    `INSERT INTO webhook_events (account_id, kind, body, next_attempt_at) SELECT $1, 'status', b, 'infinity' FROM unnest($2::text[]) AS b RETURNING id`,
    [accountId, bodies],
  );
  const storedMs = ms(start);
  let outcomes: Array<{ id: number; ms: number }> = [];
  let recording = Promise.resolve();
  // A batch that fails is kept and thrown once the POSTs are done: left on the chain, it would be an
  // unhandled rejection ending the process before the benchmark's database is dropped.
  let recordFailed: unknown;
  const record = () => {
    const batch = outcomes;
    outcomes = [];
    recording = recording.then(() =>
      ds
        .transaction(async (tx) => {
          await keyLookupsOnly(tx);
          const ids = batch.map((o) => o.id);
          await tx.query(`UPDATE webhook_events e SET state = 'delivered', attempts = 1, finished_at = now() FROM unnest($1::bigint[]) AS k(id) WHERE e.id = k.id`, [ids]);
          await tx.query(
            `INSERT INTO webhook_attempts (event_id, account_id, kind, url, attempt, response_status, error, duration_ms, delivered)
           SELECT k.id, $2, 'status', $3, 1, 200, '', k.ms, true FROM unnest($1::bigint[], $4::int[]) AS k(id, ms)`,
            [ids, accountId, url, batch.map((o) => Math.round(o.ms))],
          );
        })
        .catch((err: unknown) => {
          recordFailed ??= err;
        }),
    );
  };
  // Ids are paired with bodies by position (RETURNING in the order of unnest, as PostgreSQL inserts them):
  // an id only labels its POST (X-MM-Event-Id) and its outcome, so a pairing off would change no figure.
  let next = 0;
  const worker = async () => {
    while (next < stored.length) {
      const id = Number(stored[next].id);
      const body = bodies[next++];
      const took = await postSigned(pool, id, body, secret);
      // Pushed after the await: a batch taken by record() meanwhile is a new array, never grown later.
      outcomes.push({ id, ms: took });
      if (outcomes.length >= DURABLE_FLOOR_BATCH) record();
    }
  };
  await Promise.all(Array.from({ length: connections }, worker));
  if (outcomes.length) record();
  await recording;
  if (recordFailed) throw recordFailed;
  while (receiver.counts.distinct < bodies.length) await new Promise((r) => setTimeout(r, 50));
  const elapsed = ms(start);
  await pool.close();
  const [{ delivered }] = await ds.query(`SELECT count(*)::int AS delivered FROM webhook_attempts WHERE event_id = ANY($1::bigint[])`, [stored.map((e) => e.id)]);
  if (delivered !== bodies.length) throw new Error(`durable floor: ${delivered} attempts logged for ${bodies.length} events`);
  return { ms: elapsed, storedMs };
}

/** What the settled events of both runs take on disk: every version their leases and outcomes left behind. */
async function eventsTableSize(ds: DataSource): Promise<string> {
  const [{ events, heap, total }] = await ds.query(
    `SELECT (SELECT count(*)::int FROM webhook_events) AS events, sum(pg_relation_size(c.oid))::bigint AS heap, sum(pg_total_relation_size(c.oid))::bigint AS total
       FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = 'webhook_events'::regclass`,
  );
  const mb = (bytes: string) => fmt(Number(bytes) / 1024 / 1024);
  return `webhook_events: ${events} events in ${mb(total)} MB with indexes (heap ${mb(heap)} MB), ${Math.round(Number(total) / events)} bytes an event`;
}

/** CPU since `before` per event: this process (the product or the floor), its PostgreSQL backends, the receiver. */
async function cpuPerEvent(ds: DataSource, receiver: Receiver, before: CpuSnapshot, events: number): Promise<{ total: number; line: string }> {
  const use = cpuBetween(before, await cpuSnapshot(ds, receiver.child.pid!));
  const per = (us: number) => Math.round(us / events);
  const total = per(use.node + use.postgres);
  return { total, line: `${total} µs in node and PostgreSQL (node ${per(use.node)}, PostgreSQL ${per(use.postgres)}); receiver ${per(use.simulator)} µs` };
}

async function main() {
  if (process.argv.includes('--failing')) return failingReceiverRun();
  const total = argValue('events', 50_000);
  const bench = await startBenchApp({ webhookAllowPrivate: true, webhookRetryBaseMs: 500, webhookRetryMaxMs: 2000, webhookTimeoutMs: 5000, sweepIntervalMs: 500 });
  const ds = bench.app.get(DataSource);
  const events = bench.app.get(WebhookEventsService);
  const uow = bench.app.get(UnitOfWork);
  try {
    const { accountId } = await benchAccount(bench.app, { test: true });
    let receiver = await startReceiver();
    await ds.query(`UPDATE accounts SET webhook_status_url = $2, webhook_secret = 'whsec_bench' WHERE id = $1`, [accountId, `http://127.0.0.1:${receiver.port}/status`]);

    const first = changes(accountId, total, 'a');
    const second = changes(accountId, total, 'b');
    await storeMessages(ds, accountId, [...first, ...second]);

    console.log(`load average ${loadAverages()}`);
    // Run 1: receiver up.
    let cpu = await cpuSnapshot(ds, receiver.child.pid!);
    let start = process.hrtime.bigint();
    await uow.run((tx) => events.partsChanged(first, tx));
    const storedMs = ms(start);
    while (receiver.counts.distinct < total) await new Promise((r) => setTimeout(r, 50));
    const upMs = ms(start);
    console.log(
      `run 1, receiver up: ${total} signed receipt webhooks delivered in ${fmt(upMs / 1000)} s = ${Math.round(total / (upMs / 1000))} per second (${receiver.counts.requests} requests; storing the events took ${fmt(storedMs / 1000)} s of it)`,
    );
    const productCpu = await cpuPerEvent(ds, receiver, cpu, total);
    console.log(`  CPU per event: ${productCpu.line}`);

    // The floor: run 1's bodies (read before timing), no database while timed.
    const stored: Array<{ id: string; body: string }> = await ds.query(`SELECT id, body FROM webhook_events ORDER BY id`);
    if (stored.length !== total) throw new Error(`expected ${total} stored events, found ${stored.length}`);
    const connections = bench.config.webhookHostConcurrency;
    cpu = await cpuSnapshot(ds, receiver.child.pid!);
    const floorMs = await postFloor(
      receiver,
      stored.map((e) => ({ id: Number(e.id), body: e.body })),
      'whsec_bench',
      connections,
    );
    console.log(
      `floor: the same ${total} signed POSTs from an undici Pool (${connections} connections and in flight, WEBHOOK_HOST_CONCURRENCY), no database: ${fmt(floorMs / 1000)} s = ${Math.round(total / (floorMs / 1000))} per second (${receiver.counts.requests} requests)`,
    );
    const floorCpu = await cpuPerEvent(ds, receiver, cpu, total);
    console.log(`  CPU per event: ${floorCpu.line}`);
    console.log(`  run 1 / floor = ${fmt(upMs / floorMs)}× (CPU per event ${fmt(productCpu.total / floorCpu.total)}×; load average ${loadAverages()})`);
    // Delivery alone: from the commit that stored the events (a receipt's own transaction) to the last arrival.
    console.log(`  run 1 once stored / floor = ${fmt((upMs - storedMs) / floorMs)}× (delivered ${fmt((upMs - storedMs) / 1000)} s after the events were stored)`);
    reportResult({ ratio: upMs / floorMs, afterStoredRatio: (upMs - storedMs) / floorMs });

    // Run 2: receiver down for the first half of the run (as long as run 1 took), then back.
    const port = receiver.port;
    await stopReceiver(receiver);
    start = process.hrtime.bigint();
    await uow.run((tx) => events.partsChanged(second, tx));
    await new Promise((r) => setTimeout(r, upMs));
    const [{ failedAttempts }] = await ds.query(`SELECT count(*)::int AS "failedAttempts" FROM webhook_attempts WHERE NOT delivered`);
    receiver = await startReceiver(port);
    const backAt = ms(start);
    while (receiver.counts.distinct < total) await new Promise((r) => setTimeout(r, 50));
    const allMs = ms(start);
    const [{ pending, delivered }] = await ds.query(
      `SELECT count(*) FILTER (WHERE state = 'pending')::int AS pending, count(*) FILTER (WHERE state = 'delivered')::int AS delivered FROM webhook_events WHERE created_at >= now() - interval '1 hour'`,
    );
    console.log(
      `run 2, receiver down for ${fmt(backAt / 1000)} s (${failedAttempts} failed attempts logged), then up: all ${receiver.counts.distinct} distinct events arrived ${fmt((allMs - backAt) / 1000)} s after it came back (${receiver.counts.requests} requests); events delivered ${delivered}, still pending ${pending}`,
    );
    // Events the receiver has but the database still calls pending: their outcomes not yet recorded. Every one must settle.
    const settleStart = process.hrtime.bigint();
    let open = pending as number;
    while (open > 0 && ms(settleStart) < 60_000) {
      await new Promise((r) => setTimeout(r, 100));
      [{ open }] = await ds.query(`SELECT count(*)::int AS open FROM webhook_events WHERE state = 'pending'`);
    }
    console.log(`  every event settled ${fmt(ms(settleStart) / 1000)} s later (${open} still pending; ${receiver.counts.requests} requests at the receiver in all)`);
    console.log(`  ${await eventsTableSize(ds)}`);

    // The durable floor, last: its events are not among those counted above.
    cpu = await cpuSnapshot(ds, receiver.child.pid!);
    const durable = await durableFloor(
      ds,
      receiver,
      accountId,
      `http://127.0.0.1:${receiver.port}/status`,
      stored.map((e) => e.body),
      'whsec_bench',
      connections,
    );
    console.log(
      `durable floor: the same ${total} bodies stored as pending events by one INSERT, POSTed as the floor posts them, each ${DURABLE_FLOOR_BATCH} outcomes recorded by one UPDATE and one INSERT of attempts (no claims, leases or retries): ${fmt(durable.ms / 1000)} s = ${Math.round(total / (durable.ms / 1000))} per second (storing the events took ${fmt(durable.storedMs / 1000)} s of it)`,
    );
    const durableCpu = await cpuPerEvent(ds, receiver, cpu, total);
    console.log(`  CPU per event: ${durableCpu.line}`);
    console.log(`  run 1 / durable floor = ${fmt(upMs / durable.ms)}× (CPU per event ${fmt(productCpu.total / durableCpu.total)}×; load average ${loadAverages()})`);
    console.log(`  durable floor / floor = ${fmt(durable.ms / floorMs)}× (CPU per event ${fmt(durableCpu.total / floorCpu.total)}×)`);
    reportResult({ durableRatio: upMs / durable.ms });
    await stopReceiver(receiver);
  } finally {
    await bench.drop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
