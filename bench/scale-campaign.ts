import type { AddressInfo } from 'node:net';
import { DataSource } from 'typeorm';
import { benchAccount, ms, openBenchApp } from './support';
import { campaignBodies, postSend } from './campaign';
import type { SimulatorProcess } from './simulator-process';

/**
 * bench:scale's campaign: the same campaign (as bench:dispatch sends it: requests of 10000 from sender
 * 61400000001 to the SMPP simulator, 4 binds × window 100, receipts after 1 s) on the big database and on an
 * empty one, alternated, each run in a fresh app on its database after a warm-up send, timed from the first
 * request to the last receipt stored.
 */
export interface CampaignRun {
  database: 'big' | 'empty';
  acceptedS: number;
  receiptsS: number;
  /** Messages per second, first request to last receipt stored. */
  rate: number;
  /** Messages per second at the peer, first to last submit_sm. */
  peerRate: number;
  /** Where PostgreSQL's work went, per message, first request to last receipt stored: the profile of a slower run. */
  perMessage: { walBytes: number; fullPageImages: number; blocksRead: number; blocksHit: number };
}

interface PgCounters {
  walBytes: number;
  fpi: number;
  read: number;
  hit: number;
}

/** The cluster's WAL (only this benchmark writes meanwhile) and the database's block reads: from disk or the OS cache (read), or shared buffers (hit). */
async function pgCounters(ds: DataSource): Promise<PgCounters> {
  const [row] = await ds.query(
    `SELECT w.wal_bytes::float8 AS "walBytes", w.wal_fpi::float8 AS fpi, d.blks_read::float8 AS read, d.blks_hit::float8 AS hit
       FROM pg_stat_wal w, pg_stat_database d WHERE d.datname = current_database()`,
  );
  return row;
}

export interface CampaignDatabase {
  database: 'big' | 'empty';
  url: URL;
  /** The sending account's Basic header; made on first use when absent (the empty database). */
  auth?: string;
}

const WARMUP = 2_000;

export async function campaignRun(db: CampaignDatabase, sim: SimulatorProcess, total: number, firstNumber: number): Promise<CampaignRun> {
  const { app } = await openBenchApp(db.url, {
    smppHost: '127.0.0.1',
    smppPort: sim.port,
    smppSystemId: 'bench',
    smppPassword: 'benchpw',
    smppBinds: 4,
    smppWindow: 100,
    smppTpsPerBind: 0,
  });
  try {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`;
    db.auth ??= (await benchAccount(app, { credits: 1_000_000, senders: ['61400000001'] })).auth;
    const auth = db.auth;
    await new Promise((r) => setTimeout(r, 1000)); // the binds come up
    await sim.reset();
    await Promise.all(campaignBodies(WARMUP, WARMUP, firstNumber + 5_000_000).map((body) => postSend(base, auth, body)));
    await receiptsAcked(sim, WARMUP);
    await sim.reset();
    const ds = app.get(DataSource);
    const before = await pgCounters(ds);
    const start = process.hrtime.bigint();
    await Promise.all(campaignBodies(total, Math.min(10_000, total), firstNumber).map((body) => postSend(base, auth, body)));
    const acceptedS = ms(start) / 1000;
    await receiptsAcked(sim, total);
    const receiptsS = ms(start) / 1000;
    // pg_stat_database is flushed by each backend at most every 10 s (idle ones on exit): a moment for the last.
    await new Promise((r) => setTimeout(r, 1500));
    const after = await pgCounters(ds);
    const per = (k: keyof PgCounters) => (after[k] - before[k]) / total;
    const peer = await sim.stats();
    const peerSpan = (peer.last_submit_at! - peer.first_submit_at!) / 1000;
    return {
      database: db.database,
      acceptedS,
      receiptsS,
      rate: total / receiptsS,
      peerRate: total / peerSpan,
      perMessage: { walBytes: per('walBytes'), fullPageImages: per('fpi'), blocksRead: per('read'), blocksHit: per('hit') },
    };
  } finally {
    await app.close();
  }
}

/** Each receipt is acknowledged to the simulator only after the transaction that stored it committed. */
async function receiptsAcked(sim: SimulatorProcess, n: number): Promise<void> {
  const deadline = Date.now() + 600_000;
  while ((await sim.stats()).counters.receiptsAcked < n) {
    if (Date.now() > deadline) throw new Error(`campaign: ${n} receipts not stored within 10 minutes`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
