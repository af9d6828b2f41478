import { ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import type { DataSource } from 'typeorm';

/** Load-independent figures for bench:dispatch: CPU per process from /proc, table activity from pg_stat. */

const TICKS_PER_SECOND = 100; // USER_HZ on Linux

/** utime + stime of a process in microseconds (0 when it is gone). */
export function cpuMicros(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // Fields after the command: state is [0], utime is [11], stime is [12] (proc(5) fields 14 and 15).
    return ((Number(fields[11]) + Number(fields[12])) * 1e6) / TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}

export interface CpuSnapshot {
  node: number;
  simulator: number;
  simulators: Map<number, number>;
  /** Backends connected to the benchmark's database, by pid. */
  backends: Map<number, number>;
  /** WAL writer, background writer, checkpointer: shared by every database of the cluster. */
  shared: Map<number, number>;
}

/** `node` is this process plus any worker processes (`--workers N`); `simulator` the peer's pid (or peers', summed). */
export async function cpuSnapshot(ds: DataSource, simulator: number | number[], workerPids: number[] = []): Promise<CpuSnapshot> {
  const simulatorPids = typeof simulator === 'number' ? [simulator] : simulator;
  const rows: Array<{ pid: number; mine: boolean }> = await ds.query(
    `SELECT pid, datname IS NOT DISTINCT FROM current_database() AS mine FROM pg_stat_activity
      WHERE datname = current_database() OR backend_type IN ('walwriter', 'background writer', 'checkpointer')`,
  );
  const backends = new Map<number, number>();
  const shared = new Map<number, number>();
  for (const r of rows) (r.mine ? backends : shared).set(r.pid, cpuMicros(r.pid));
  const node = [process.pid, ...workerPids].reduce((sum, pid) => sum + cpuMicros(pid), 0);
  // A simulator killed mid-campaign (--kill-one-at) reads 0: its CPU is left out of the sum.
  return { node, simulator: simulatorPids.reduce((sum, pid) => sum + cpuMicros(pid), 0), simulators: new Map(simulatorPids.map((pid) => [pid, cpuMicros(pid)])), backends, shared };
}

export interface CpuUse {
  node: number;
  simulator: number;
  postgres: number;
  shared: number;
}

/** CPU between two snapshots; a backend that appeared in between counts from zero. */
export function cpuBetween(before: CpuSnapshot, after: CpuSnapshot): CpuUse {
  const delta = (b: Map<number, number>, a: Map<number, number>) => [...a].reduce((sum, [pid, us]) => sum + us - (b.get(pid) ?? 0), 0);
  return {
    node: after.node - before.node,
    simulator: [...after.simulators].reduce((sum, [pid, us]) => sum + (us > 0 ? us - (before.simulators.get(pid) ?? 0) : 0), 0),
    postgres: delta(before.backends, after.backends),
    shared: delta(before.shared, after.shared),
  };
}

export interface TableActivity {
  inserts: number;
  updates: number;
  hotUpdates: number;
  deletes: number;
  seqRead: number;
  idxRead: number;
}

export async function tableActivity(ds: DataSource): Promise<Map<string, TableActivity>> {
  const rows: Array<Record<string, string>> = await ds.query(
    `SELECT t.relname, t.n_tup_ins, t.n_tup_upd, t.n_tup_hot_upd, t.n_tup_del, coalesce(t.seq_tup_read, 0) AS seq_read,
            coalesce((SELECT sum(i.idx_tup_read) FROM pg_stat_user_indexes i WHERE i.relid = t.relid), 0) AS idx_read
       FROM pg_stat_user_tables t`,
  );
  return new Map(
    rows.map((r) => [
      r.relname,
      {
        inserts: Number(r.n_tup_ins),
        updates: Number(r.n_tup_upd),
        hotUpdates: Number(r.n_tup_hot_upd),
        deletes: Number(r.n_tup_del),
        seqRead: Number(r.seq_read),
        idxRead: Number(r.idx_read),
      },
    ]),
  );
}

export function activityBetween(before: Map<string, TableActivity>, after: Map<string, TableActivity>): Map<string, TableActivity> {
  const out = new Map<string, TableActivity>();
  for (const [table, a] of after) {
    const b = before.get(table) ?? { inserts: 0, updates: 0, hotUpdates: 0, deletes: 0, seqRead: 0, idxRead: 0 };
    const d = {
      inserts: a.inserts - b.inserts,
      updates: a.updates - b.updates,
      hotUpdates: a.hotUpdates - b.hotUpdates,
      deletes: a.deletes - b.deletes,
      seqRead: a.seqRead - b.seqRead,
      idxRead: a.idxRead - b.idxRead,
    };
    if (Object.values(d).some((v) => v !== 0)) out.set(table, d);
  }
  return out;
}

/** Backends publish their counters at most once a second and, once idle, up to 10 s later: wait for that. */
export const STATS_SETTLE_MS = 11_000;

/**
 * `--workers N`: N `APP_ROLE=worker` processes (dist/src/main.js) on the benchmark's database and Redis
 * prefix, each with its own binds to the simulator; resolves once each has logged `worker started`.
 */
export async function startWorkers(n: number, env: Record<string, string>): Promise<ChildProcess[]> {
  const main = path.resolve(__dirname, '../src/main.js');
  return Promise.all(
    Array.from({ length: n }, async () => {
      const child = spawn(process.execPath, [main], { env: { ...process.env, APP_ROLE: 'worker', PORT: '0', LOG_LEVEL: 'info', ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
      await new Promise<void>((resolve, reject) => {
        let seen = '';
        const onData = (chunk: Buffer) => {
          seen += chunk.toString();
          if (seen.includes('worker started')) {
            child.stdout!.off('data', onData);
            child.stdout!.resume();
            resolve();
          }
        };
        child.stdout!.on('data', onData);
        child.once('exit', (code) => reject(new Error(`worker exited with ${code}`)));
      });
      return child;
    }),
  );
}

export function loadAverages(): string {
  return os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(', ');
}

/**
 * `--backlog N`: N earlier messages, already delivered (their parts carrying their receipts), for another
 * account, in sends of 10000, inserted in chunks and then VACUUM ANALYZEd (the state autovacuum leaves a
 * busy table in), so the campaign runs on a table that is mostly history.
 */
export async function insertBacklog(ds: DataSource, accountId: number, total: number, log: (line: string) => void): Promise<void> {
  const perSend = 10_000;
  for (let done = 0; done < total; done += perSend) {
    const n = Math.min(perSend, total - done);
    const [{ id: sendId }] = (await ds.query(
      `INSERT INTO sends (account_id, kind, message_count, total_cost, created_at) VALUES ($1, 'batch', $2, $2 * 100, now() - interval '1 day') RETURNING id`,
      [accountId, n],
    )) as Array<{ id: number }>;
    await ds.query(
      `WITH m AS (
         INSERT INTO messages (id, account_id, send_id, to_number, sender, sender_type, body, status, encoding, parts, cost, is_test, dispatch_at, created_at, updated_at)
         SELECT gen_random_uuid(), $1, $2, '614' || lpad((($4::int + g) % 100000000)::text, 8, '0'), 'Backlog', 'alphanumeric', 'Earlier campaign message ' || g,
                'pending', 'gsm7', 1, 100, false, now() - interval '1 day', now() - interval '1 day', now() - interval '1 day'
           FROM generate_series(1, $3) g
         RETURNING id, dispatch_at, seq
       ), parts AS (
         INSERT INTO message_parts (message_id, part_number, account_id, total_parts, carrier_id, smsc_id, status, submitted_at, receipt_at, receipt_stat, receipt_err)
         SELECT id, 1, $1, 1, 0, 'backlog' || seq, 'delivered', now() - interval '1 day', now() - interval '1 day', 'DELIVRD', '000' FROM m
       )
       UPDATE sends SET (last_at, last_seq, claimed_through_at, claimed_through_seq) = (
         SELECT dispatch_at, seq, dispatch_at, seq FROM m ORDER BY dispatch_at DESC, seq DESC LIMIT 1)
        WHERE id = $2`,
      [accountId, sendId, n, done],
    );
    if ((done + n) % 200_000 === 0 || done + n === total) log(`  backlog: ${done + n} of ${total} earlier messages inserted`);
  }
  await ds.query(`VACUUM ANALYZE sends, messages, message_parts, delivery_receipts`);
}
