import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { DataSource } from 'typeorm';
import type { AppConfig } from '../src/config/app-config';
import { classifyCampaign, failoverReport, readJournal, type JournalEntry } from './dispatch-failover';
import { startSimulatorProcess, type SimulatorProcess, type SimulatorStats } from './simulator-process';

/**
 * The SMSC side of bench:dispatch: one simulator reached through the SMPP_* settings (the default), or
 * `--carriers N` simulators, each a carrier the way an operator adds one (carrier:add through the CLI, its
 * password sealed with CARRIER_SECRET_KEY) and no route, so the default route shares the load among them
 * by weight 1 each. `--kill-one-at T` SIGKILLs the first carrier's simulator T after the campaign's first
 * submit_sm reached a peer; each
 * simulator then keeps a journal of what it accepted (the killed one's record outlives it), and the
 * report checks every message settled (dispatch-failover.ts).
 */
export interface PeerOptions {
  carriers: number;
  /** Milliseconds into the campaign, or null. */
  killAtMs: number | null;
  binds: number;
  window: number;
  workers: number;
  /** RECEIPT_WAIT_MS with --kill-one-at: the killed carrier's accepted parts never get a receipt. */
  receiptWaitMs: number;
}

export interface DispatchPeers {
  simulatorPids: number[];
  /** Settings of the benchmark's app and of each `--workers` process that reach the peers. */
  appOverrides: Partial<AppConfig>;
  workerEnv: Record<string, string>;
  /** For the campaign's first line. */
  summary: string;
  /** Once the database is migrated: the carriers (carrier:add), then every bind up. */
  configure(databaseUrl: string): Promise<void>;
  /** Every simulator's statistics summed (a killed one's from its journal). */
  stats(): Promise<SimulatorStats>;
  reset(): Promise<void>;
  campaignStarted(): void;
  /** True once the campaign is over at the peers (with a kill: every message settled, or no progress for a minute). */
  finished(ds: DataSource, accountId: number, startEpoch: number, total: number): Promise<boolean>;
  /** Prints the per-carrier lines; false when a check failed (the benchmark then exits non-zero). */
  report(ds: DataSource, accountId: number, startEpoch: number, total: number): Promise<boolean>;
  stop(): void;
}

const SECRET_KEY = randomBytes(32).toString('hex');
const PASSWORD = 'benchpw';

/** "2s", "1.5s", "2000ms" or "2000" (ms). */
export function parseDuration(text: string | undefined): number | null {
  if (text === undefined) return null;
  const m = /^(\d+(?:\.\d+)?)(ms|s)?$/.exec(text.trim());
  if (!m) throw new Error(`--kill-one-at: expected a duration like 2s or 1500ms, got ${text}`);
  return Math.round(Number(m[1]) * (m[2] === 's' ? 1000 : 1));
}

export async function startDispatchPeers(o: PeerOptions): Promise<DispatchPeers> {
  if (o.carriers <= 1) return singlePeer(o);
  const dir = o.killAtMs === null ? null : mkdtempSync(path.join(os.tmpdir(), 'bench-dispatch-'));
  const journals = Array.from({ length: o.carriers }, (_, i) => (dir ? path.join(dir, `carrier-${i + 1}.journal`) : undefined));
  const sims = await Promise.all(journals.map((journal) => startSimulatorProcess(1000, { journal })));
  const names = sims.map((_, i) => `carrier-${i + 1}`);
  const bindsPerSim = o.binds * Math.max(1, o.workers);
  let killedAt: number | null = null;
  let killTimer: NodeJS.Timeout | undefined;
  let stopped = false;
  let progress = { submits: -1, receipts: -1, at: Date.now() };
  let checkedDatabaseAt = 0;
  const receiptWait = o.killAtMs === null ? {} : { receiptWaitMs: o.receiptWaitMs, receiptWaitCloseIntervalMs: 1000 };

  const alive = (i: number) => !(killedAt !== null && i === 0);
  const statsOf = async (i: number): Promise<SimulatorStats> => {
    if (alive(i)) return sims[i].stats();
    const entries = readJournal(journals[0]!);
    return {
      counters: { submits: entries.length, receiptsAcked: 0 },
      sessions: [],
      duplicated_destinations: 0,
      first_submit_at: entries[0]?.at ?? null,
      last_submit_at: entries.at(-1)?.at ?? null,
    };
  };
  const all = () => Promise.all(sims.map((_, i) => statsOf(i)));

  return {
    simulatorPids: sims.map((s) => s.process.pid!),
    appOverrides: { carrierSecretKey: SECRET_KEY, ...receiptWait },
    workerEnv: {
      CARRIER_SECRET_KEY: SECRET_KEY,
      ...(o.killAtMs === null ? {} : { RECEIPT_WAIT_MS: String(o.receiptWaitMs), RECEIPT_WAIT_CLOSE_INTERVAL_MS: '1000' }),
    },
    summary:
      `${o.carriers} carriers (carrier:add, no route: the default route shares by weight 1), each ${o.binds} binds × window ${o.window}` +
      (o.killAtMs === null ? '' : `, carrier-1's simulator SIGKILLed ${o.killAtMs} ms after the first submit_sm at a peer (RECEIPT_WAIT_MS ${o.receiptWaitMs})`),
    configure: async (databaseUrl) => {
      for (const [i, sim] of sims.entries()) await carrierAdd(databaseUrl, names[i], sim.port, o.binds, o.window);
      // Workers see the rows within CARRIER_RELOAD_MS and bind.
      const deadline = Date.now() + 60_000;
      while ((await all()).some((s) => s.sessions.filter((x) => x.bound).length < bindsPerSim)) {
        if (Date.now() > deadline) throw new Error(`the carriers did not bind ${bindsPerSim} sessions each within 60 s`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    stats: async () => sumStats(await all()),
    reset: async () => void (await Promise.all(sims.map((s) => s.reset()))),
    campaignStarted: () => {
      if (o.killAtMs === null) return;
      const killAtMs = o.killAtMs;
      // Counted from the first submit_sm at a peer, so that on a loaded machine (the first request may take
      // seconds to commit) the kill still lands mid-traffic. Polled only until then (/stats walks every submit).
      void (async () => {
        let first: number | null = null;
        while (first === null && !stopped) {
          first = sumStats(await all()).first_submit_at;
          if (first === null) await new Promise((r) => setTimeout(r, 20));
        }
        if (first === null) return;
        killTimer = setTimeout(
          () => {
            killedAt = Date.now();
            sims[0].process.kill('SIGKILL');
          },
          Math.max(0, first + killAtMs - Date.now()),
        );
      })();
    },
    finished: async (ds, accountId, startEpoch, total) => {
      const each = await all();
      if (o.killAtMs === null) return sumStats(each).counters.receiptsAcked >= total;
      if (killedAt === null) return false;
      const s = sumStats(each);
      if (s.counters.submits !== progress.submits || s.counters.receiptsAcked !== progress.receipts) {
        progress = { submits: s.counters.submits, receipts: s.counters.receiptsAcked, at: Date.now() };
      }
      // No progress for a minute past the receipt wait: something is lost; the report says what.
      if (Date.now() - progress.at > o.receiptWaitMs + 60_000) return true;
      // The survivors' receipts all stored first (cheap, at the peers), then the database once a second.
      if (each.some((x, i) => i > 0 && x.counters.receiptsAcked < x.counters.submits)) return false;
      if (Date.now() - checkedDatabaseAt < 1000) return false;
      checkedDatabaseAt = Date.now();
      const states = await classifyCampaign(ds, accountId, startEpoch);
      return (states.get('delivered') ?? 0) + (states.get('failed') ?? 0) + (states.get('sent') ?? 0) >= total;
    },
    report: async (ds, accountId, startEpoch, total) => {
      const each = await all();
      const accepted = each.map((s) => s.counters.submits);
      const sum = accepted.reduce((a, b) => a + b, 0);
      console.log(`  per carrier (submit_sm accepted at its simulator; the carrier_id of the stored parts)`);
      const byCarrier: Array<{ name: string; parts: number }> = await ds.query(
        `SELECT c.name, count(*)::int AS parts FROM message_parts p JOIN carriers c ON c.id = p.carrier_id
          WHERE p.account_id = $1 AND p.submitted_at >= to_timestamp($2 / 1000.0) GROUP BY c.name`,
        [accountId, startEpoch],
      );
      for (const [i, name] of names.entries()) {
        const parts = byCarrier.find((c) => c.name === name)?.parts ?? 0;
        const share = sum ? Math.round((accepted[i] * 1000) / sum) / 10 : 0;
        console.log(`    ${name}${alive(i) ? '' : ' (killed)'}  ${accepted[i]} accepted (${share}%), ${parts} parts stored with it`);
      }
      if (o.killAtMs === null || killedAt === null) return true;
      const entries: JournalEntry[][] = journals.map((j) => readJournal(j!));
      return failoverReport({ ds, accountId, startEpoch, total, killedAt, entries, bound: bindsPerSim * o.window, names });
    },
    stop: () => {
      stopped = true;
      clearTimeout(killTimer);
      for (const [i, sim] of sims.entries()) if (alive(i)) sim.process.kill('SIGTERM');
      if (dir) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Today's bench:dispatch: one simulator through SMPP_*. */
async function singlePeer(o: PeerOptions): Promise<DispatchPeers> {
  const sim: SimulatorProcess = await startSimulatorProcess(1000);
  const smpp = { SMPP_HOST: '127.0.0.1', SMPP_PORT: String(sim.port), SMPP_SYSTEM_ID: 'bench', SMPP_PASSWORD: PASSWORD };
  return {
    simulatorPids: [sim.process.pid!],
    appOverrides: { smppHost: '127.0.0.1', smppPort: sim.port, smppSystemId: 'bench', smppPassword: PASSWORD, smppBinds: o.binds, smppWindow: o.window, smppTpsPerBind: 0 },
    workerEnv: { ...smpp, SMPP_BINDS: String(o.binds), SMPP_WINDOW: String(o.window), SMPP_TPS_PER_BIND: '0' },
    summary: `SMPP ${o.binds} binds × window ${o.window}`,
    configure: async () => undefined,
    stats: sim.stats,
    reset: sim.reset,
    campaignStarted: () => undefined,
    finished: async (_ds, _a, _s, total) => (await sim.stats()).counters.receiptsAcked >= total,
    report: async () => true,
    stop: () => void sim.process.kill('SIGTERM'),
  };
}

function sumStats(each: SimulatorStats[]): SimulatorStats {
  const times = (pick: (s: SimulatorStats) => number | null) => each.map(pick).filter((t): t is number => t !== null);
  const first = times((s) => s.first_submit_at);
  const last = times((s) => s.last_submit_at);
  return {
    counters: {
      submits: each.reduce((n, s) => n + s.counters.submits, 0),
      receiptsAcked: each.reduce((n, s) => n + s.counters.receiptsAcked, 0),
    },
    sessions: each.flatMap((s) => s.sessions),
    duplicated_destinations: each.reduce((n, s) => n + s.duplicated_destinations, 0),
    first_submit_at: first.length ? Math.min(...first) : null,
    last_submit_at: last.length ? Math.max(...last) : null,
  };
}

/** carrier:add through the built CLI, as an operator adds a carrier (the password from an environment variable). */
function carrierAdd(databaseUrl: string, name: string, port: number, binds: number, window: number): Promise<void> {
  const cli = path.resolve(__dirname, '../src/cli.js');
  const args = ['carrier:add', '--name', name, '--host', '127.0.0.1', '--port', String(port), '--system-id', 'bench', '--password-env', 'BENCH_CARRIER_PASSWORD'];
  args.push('--binds', String(binds), '--window', String(window));
  const env = { ...process.env, DATABASE_URL: databaseUrl, CARRIER_SECRET_KEY: SECRET_KEY, BENCH_CARRIER_PASSWORD: PASSWORD, LOG_LEVEL: 'silent' };
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, ...args], { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (c) => (stderr += c));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`carrier:add ${name} exited with ${code}: ${stderr}`))));
  });
}
