import { writeFileSync } from 'node:fs';
import inspector from 'node:inspector';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { DataSource } from 'typeorm';
import { MESSAGE_STATUS, WITH_PART_STATUS } from '../src/delivery/state/message-status';
import { explainDispatchPath } from './dispatch-plans';
import { activityBetween, cpuBetween, cpuMicros, cpuSnapshot, insertBacklog, loadAverages, startWorkers, STATS_SETTLE_MS, tableActivity } from './dispatch-measures';
import { CampaignClient, epochNow, loadHttpClient, startCampaignClient } from './campaign';
import { parseDuration, startDispatchPeers } from './dispatch-carriers';
import { argValue, benchAccount, fmt, ms, startBenchApp, stats } from './support';
import { reportResult } from './bench-result';

/**
 * npm run bench:dispatch [-- --messages 50000 --binds 4 --window 100 --backlog 1000000 --explain --workers 2
 *                            --carriers 2 --kill-one-at 2s --receipt-wait-ms 5000]
 * A campaign of requests × 10000 messages on a live account, sent through the HTTP API by a client in a
 * process of its own (campaign-client.ts, as an API client would be), to the bundled SMSC
 * simulator (a separate process, real SMPP on loopback, receipts after 1 s), until every receipt is
 * stored. Prints the time to accept, to the peer (first and all, from the simulator's own clock), the
 * sustained rate at the peer, CPU per message by process (from /proc), row writes and tuples read per
 * message (pg_stat_user_tables deltas), and the latency of GET /v1/account probed during the run beside
 * this process's event-loop delay (how late a 10 ms timer fires: what any request here waits behind other
 * synchronous work; in the default one-process shape the dispatch's work shares that loop).
 * `--backlog N` first stores N earlier, delivered messages, so the campaign runs on a big table;
 * `--explain` then runs the dispatch path's statements once more under EXPLAIN (ANALYZE, BUFFERS).
 * `--workers N` dispatches in N APP_ROLE=worker processes (each with its own binds) instead of this
 * process, which then only serves the API. `--warmup N` first sends N other messages the same way and waits
 * for their receipts, so the campaign is measured in processes whose hot code V8 has already compiled (a
 * service that has been running a while) rather than in fresh ones; without it, compiling is part of the
 * figures. SMSC_SIM_MAIN=<path to another build's dist/src/smsc-sim/main.js> runs that simulator instead,
 * to compare gateways against one yardstick when the simulator has changed.
 * `--carriers N` runs N simulator processes as N carriers added with `carrier:add` (each `--binds` ×
 * `--window`, per worker) and no route, so the default route shares the campaign among them; the peer
 * figures are summed and each carrier's share is printed (dispatch-carriers.ts). `--kill-one-at T` (with
 * `--carriers`) SIGKILLs carrier-1's simulator T (2s, 1500ms) after the first submit_sm reached a peer, runs
 * the receipt-wait closing every second with RECEIPT_WAIT_MS `--receipt-wait-ms` (5000), waits until every
 * message settled, and prints the rate before and after the loss, the time until the survivors carry the
 * whole rate, duplicates at the peers against binds × window, and each message's settled state; it exits
 * non-zero when a message is unsettled or lost, or duplicates pass the bound (dispatch-failover.ts).
 */
const LOOP_RESOLUTION_MS = 10;

async function main() {
  const total = argValue('messages', 50_000);
  const binds = argValue('binds', 4);
  const window = argValue('window', 100);
  const backlog = argValue('backlog', 0);
  const workerCount = argValue('workers', 0);
  const warmup = argValue('warmup', 0);
  const perRequest = Math.min(10_000, total);
  const killAt = process.argv.indexOf('--kill-one-at');
  const peers = await startDispatchPeers({
    carriers: argValue('carriers', 1),
    killAtMs: parseDuration(killAt >= 0 ? process.argv[killAt + 1] : undefined),
    binds,
    window,
    workers: workerCount,
    receiptWaitMs: argValue('receipt-wait-ms', 5000),
  });
  const simStats = () => peers.stats();

  const bench = await startBenchApp({ ...peers.appOverrides, ...(workerCount > 0 ? { appRole: 'api' as const } : {}) });
  const workers = workerCount > 0 ? await startWorkers(workerCount, { DATABASE_URL: bench.config.databaseUrl, REDIS_PREFIX: bench.config.redisPrefix, ...peers.workerEnv }) : [];
  const workerPids = workers.map((w) => w.pid!);
  let client: CampaignClient | undefined;
  try {
    await bench.app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(bench.app.getHttpServer().address() as AddressInfo).port}`;
    const { auth, accountId } = await benchAccount(bench.app, { credits: 1_000_000, senders: ['61400000001'] });
    const other = await benchAccount(bench.app, { credits: 1, senders: ['Other'] });
    const ds = bench.app.get(DataSource);
    await peers.configure(bench.config.databaseUrl);
    if (backlog > 0) {
      const history = await benchAccount(bench.app, { credits: 1, senders: ['Backlog'] });
      await insertBacklog(ds, history.accountId, backlog, (line) => console.log(line));
    }
    // Let the binds come up before the clock starts.
    await new Promise((r) => setTimeout(r, 1000));
    if (warmup > 0) {
      const warming = await startCampaignClient({ base, auth, total: warmup, perRequest: Math.min(10_000, warmup), firstNumber: 30_000_000 });
      await warming.send().finally(() => warming.stop());
      while ((await simStats()).counters.receiptsAcked < warmup) await new Promise((r) => setTimeout(r, 100));
      await peers.reset();
      // The statistics of the warm-up's last transactions reach pg_stat_user_tables late: let them land first.
      await new Promise((r) => setTimeout(r, STATS_SETTLE_MS));
      console.log(`  warm-up: ${warmup} messages sent and their receipts stored before the campaign`);
    }

    // The campaign's requests go out from a client process of its own; the probe's from this one.
    client = await startCampaignClient({ base, auth, total, perRequest, firstNumber: 10_000_000 });
    await loadHttpClient(base);
    // Whatever setup dirtied (a new database, a backlog, a warm-up) is written out first, so no campaign
    // pays for another's checkpoint (and the probe below never waits for this one).
    await ds.query('CHECKPOINT');
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
    const activityBefore = await tableActivity(ds);
    const cpuBefore = await cpuSnapshot(ds, peers.simulatorPids, workerPids);
    const clientCpuBefore = cpuMicros(client.pid);
    // This process's event loop: the probe's latency is mostly time it waits behind other synchronous work.
    const loopDelay = monitorEventLoopDelay({ resolution: LOOP_RESOLUTION_MS });
    loopDelay.enable();
    perfControl('enable');
    const profile = await startCpuProfile();
    const startEpoch = Date.now();
    const start = process.hrtime.bigint();
    const startedAt = epochNow();
    peers.campaignStarted();
    const answeredAt = await client.send();
    const firstAcceptedMs = Math.min(...answeredAt) - startedAt;
    const acceptedMs = Math.max(...answeredAt) - startedAt;

    // Every receipt acknowledged by the gateway: each is acknowledged only after the transaction that
    // stored and applied it committed. Watched at the simulator, so the wait adds no database reads.
    // With --kill-one-at: until every message settled (the killed carrier's parts by their receipt wait).
    while (!(await peers.finished(ds, accountId, startEpoch, total))) await new Promise((r) => setTimeout(r, 100));
    const receiptsMs = ms(start);
    perfControl('disable');
    loopDelay.disable();
    const cpu = cpuBetween(cpuBefore, await cpuSnapshot(ds, peers.simulatorPids, workerPids));
    const clientCpu = cpuMicros(client.pid) - clientCpuBefore;
    // Written after the CPU is read (the profiler's sampling itself is in the figures of a profiled run).
    await profile?.stop();
    probing = false;
    await probe;
    const peer = await simStats();
    await new Promise((r) => setTimeout(r, STATS_SETTLE_MS));
    const activity = activityBetween(activityBefore, await tableActivity(ds));
    const [{ settled, sent }] = await ds.query(
      `SELECT count(*) FILTER (WHERE ${MESSAGE_STATUS} IN ('delivered', 'failed'))::int AS settled, count(*) FILTER (WHERE ${MESSAGE_STATUS} <> 'pending')::int AS sent
         FROM messages m ${WITH_PART_STATUS} WHERE m.account_id = $1 AND m.created_at >= to_timestamp($2 / 1000.0)`,
      [accountId, startEpoch],
    );
    const firstAtPeer = (peer.first_submit_at! - startEpoch) / 1000;
    const allAtPeer = (peer.last_submit_at! - startEpoch) / 1000;
    const peerSpan = (peer.last_submit_at! - peer.first_submit_at!) / 1000;
    const p = stats(probeLatencies);
    const us = (v: number) => `${Math.round(v / total)} µs`;

    console.log(
      `campaign: ${total} messages in ${answeredAt.length} requests of ${perRequest}, ${peers.summary}, simulator receipts after 1 s` +
        (backlog ? `, on a backlog of ${backlog} earlier messages` : '') +
        (warmup ? `, after a warm-up of ${warmup}` : '') +
        (workerCount ? `, dispatched by ${workerCount} APP_ROLE=worker process(es) with ${binds} binds each` : ''),
    );
    console.log(`  first request answered (committed)   ${fmt(firstAcceptedMs / 1000)} s`);
    console.log(`  all accepted (${answeredAt.length} responses)          ${fmt(acceptedMs / 1000)} s`);
    console.log(`  first at the peer                    ${fmt(firstAtPeer)} s (${Math.round(firstAtPeer * 1000 - firstAcceptedMs)} ms after the first answer)`);
    console.log(`  all at the peer                      ${fmt(allAtPeer)} s (${peer.counters.submits} submit_sm accepted)`);
    console.log(`  sustained at the peer                ${Math.round(total / peerSpan)} messages/s (first to last submit_sm: ${fmt(peerSpan)} s)`);
    console.log(`  every receipt stored                 ${fmt(receiptsMs / 1000)} s (${settled} settled, ${sent} past pending in the database)`);
    console.log(
      `  CPU per message                      ${us(cpu.node + cpu.postgres)} gateway = node ${us(cpu.node)}${workerCount ? ` (API + ${workerCount} workers)` : ''} + PostgreSQL backends ${us(cpu.postgres)}`,
    );
    console.log(
      `                                       (simulator ${us(cpu.simulator)}; campaign client ${us(clientCpu)}; cluster-wide WAL writer/bgwriter/checkpointer ${us(cpu.shared)})`,
    );
    // The simulator does the same work in every run, so when the machine is slower for a while (a busy
    // neighbour, a cold cache) its figure rises with ours: the ratio moves far less than either.
    console.log(`  gateway ÷ simulator CPU              ${fmt((cpu.node + cpu.postgres) / cpu.simulator)} (the same work on the peer's side as a yardstick)`);
    const sum = (pick: (a: { inserts: number; updates: number; hotUpdates: number; deletes: number; seqRead: number; idxRead: number }) => number) =>
      [...activity.values()].reduce((s, a) => s + pick(a), 0);
    const writes = sum((a) => a.inserts + a.updates + a.deletes);
    console.log(
      `  row writes per message               ${fmt(writes / total)} (${writes} = ${sum((a) => a.inserts)} inserts + ${sum((a) => a.updates)} updates [${sum((a) => a.hotUpdates)} HOT] + ${sum((a) => a.deletes)} deletes)`,
    );
    console.log(
      `  tuples read per message              ${fmt(sum((a) => a.seqRead + a.idxRead) / total)} (${sum((a) => a.seqRead)} by sequential scans + ${sum((a) => a.idxRead)} index entries)`,
    );
    for (const [table, a] of [...activity].sort((x, y) => y[1].inserts + y[1].updates - (x[1].inserts + x[1].updates))) {
      console.log(`    ${table.padEnd(22)} ins ${a.inserts} upd ${a.updates} (HOT ${a.hotUpdates}) del ${a.deletes}; read seq ${a.seqRead} idx ${a.idxRead}`);
    }
    console.log(
      `  GET /v1/account during the run       p50 ${fmt(p.p50)} ms, p99 ${fmt(p.p99)} ms, max ${fmt(p.max)} ms over ${probeLatencies.length} requests (the first, the route's first in this process: ${fmt(probeLatencies[0])} ms)`,
    );
    reportResult({ sustained: Math.round(total / peerSpan), probeP99Ms: p.p99 });
    // The histogram holds whole timer intervals: its lateness is what lies beyond the 10 ms resolution.
    const late = (ns: number) => fmt(Math.max(0, ns / 1e6 - LOOP_RESOLUTION_MS));
    console.log(
      `  event-loop delay (this process)      p50 ${late(loopDelay.percentile(50))} ms, p99 ${late(loopDelay.percentile(99))} ms, max ${late(loopDelay.max)} ms` +
        (workerCount ? ' (the API only)' : ' (API and dispatch share it)'),
    );
    if (!(await peers.report(ds, accountId, startEpoch, total))) process.exitCode = 1;
    console.log(`  load average (1, 5, 15 min)          ${loadAverages()}`);
    if (process.argv.includes('--explain')) {
      const planFile = path.resolve(`dispatch-plans-${backlog}.txt`);
      console.log(`  dispatch path on this database, EXPLAIN (ANALYZE, BUFFERS) of each statement, a batch of 1000 from a send of 10000 (plans: ${planFile}):`);
      for (const line of await explainDispatchPath(ds, accountId, 10_000, 1000, planFile)) console.log(line);
    }
  } finally {
    client?.stop();
    await Promise.all(workers.map((w) => new Promise((r) => (w.once('exit', r), w.kill('SIGTERM')))));
    await bench.drop();
    peers.stop();
  }
}

/**
 * With CPU_PROFILE set (a file name), this process's V8 CPU profile of the campaign only (first request
 * to last receipt stored) is written there, for Chrome DevTools or any .cpuprofile reader.
 */
async function startCpuProfile(): Promise<{ stop(): Promise<void> } | null> {
  const file = process.env.CPU_PROFILE;
  if (!file) return null;
  const session = new inspector.Session();
  session.connect();
  const post = (method: string, params?: object) =>
    new Promise<unknown>((resolve, reject) => session.post(method, params ?? {}, (err, result) => (err ? reject(err) : resolve(result))));
  await post('Profiler.enable');
  await post('Profiler.setSamplingInterval', { interval: 200 });
  await post('Profiler.start');
  return {
    stop: async () => {
      const { profile } = (await post('Profiler.stop')) as { profile: object };
      writeFileSync(file, JSON.stringify(profile));
      session.disconnect();
    },
  };
}

/**
 * With PERF_CTL_FIFO set (the control FIFO of `perf record --control fifo:<ctl> -D -1`), profiling runs
 * only during the campaign: enabled as the first request goes out, disabled once every receipt is stored.
 */
function perfControl(command: 'enable' | 'disable'): void {
  if (process.env.PERF_CTL_FIFO) writeFileSync(process.env.PERF_CTL_FIFO, `${command}\n`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
