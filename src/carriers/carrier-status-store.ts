import { Injectable } from '@nestjs/common';
import { RedisService } from '../common/redis/redis.service';

/** One carrier as one worker sees it, over the last publishing interval. */
export interface PublishedCarrier {
  id: number;
  name: string;
  /** up: taking traffic; down: every bind down or too many temporary errors (see reason); draining: removed/disabled/updated, finishing. */
  state: 'up' | 'down' | 'draining';
  reason: string | null;
  bindsUp: number;
  bindsConfigured: number;
  inFlight: number;
  /** binds × window: the most parts it may hold unanswered. */
  windowSize: number;
  /** Parts submitted (answered or not) and answers refused (temporarily or for good) in the interval. */
  submits: number;
  answers: number;
  errors: number;
  intervalMs: number;
}

export interface PublishedWorker {
  worker: string;
  at: number;
  /** Messages and parts of this worker waiting because every carrier of their route is down. */
  waiting: { messages: number; parts: number };
  carriers: PublishedCarrier[];
}

/** A worker's report older than this is of a stopped worker and ignored (workers publish every 2 s). */
export const STATUS_FRESH_MS = 10_000;
const KEY = 'carrier-status';

/**
 * Per-carrier status as workers publish it, for `carrier:status` (and anyone else outside the worker).
 * In Redis, not PostgreSQL: it is rebuilt every 2 s, worthless after a minute, and a worker's report
 * vanishes with it (the hash expires if no worker writes) without a table to purge or a write on the
 * database every worker every 2 s. One hash, a field per worker.
 */
@Injectable()
export class CarrierStatusStore {
  constructor(private readonly redis: RedisService) {}

  async publish(report: PublishedWorker): Promise<void> {
    await this.redis.run((c) => c.multi().hset(KEY, report.worker, JSON.stringify(report)).pexpire(KEY, 60_000).exec());
  }

  async withdraw(worker: string): Promise<void> {
    await this.redis.run((c) => c.hdel(KEY, worker));
  }

  /** The fresh reports, oldest workers' reports dropped. */
  async read(now: number): Promise<PublishedWorker[]> {
    const all = await this.redis.run((c) => c.hgetall(KEY));
    const reports = Object.values(all).map((text) => JSON.parse(text) as PublishedWorker);
    return reports.filter((r) => now - r.at <= STATUS_FRESH_MS);
  }
}

export interface CarrierStatusLine {
  carrier: string;
  id: number;
  workers: number;
  state: string;
  binds: string;
  window_use: string;
  submits_per_second: number;
  error_share: number;
}

/** The workers' reports summed per carrier: what `carrier:status` prints. Pure. */
export function summarise(reports: PublishedWorker[]): { carriers: CarrierStatusLine[]; waiting: { messages: number; parts: number } } {
  const by = new Map<number, PublishedCarrier[]>();
  for (const r of reports) for (const c of r.carriers) by.set(c.id, [...(by.get(c.id) ?? []), c]);
  const carriers = [...by.entries()]
    .sort(([a], [b]) => a - b)
    .map(([id, seen]) => {
      const sum = (f: (c: PublishedCarrier) => number) => seen.reduce((s, c) => s + f(c), 0);
      const answers = sum((c) => c.answers);
      const states = [...new Set(seen.map((c) => (c.reason ? `${c.state} (${c.reason})` : c.state)))];
      return {
        carrier: seen[0].name,
        id,
        workers: seen.length,
        state: states.join(', '),
        binds: `${sum((c) => c.bindsUp)}/${sum((c) => c.bindsConfigured)} up`,
        window_use: `${sum((c) => c.inFlight)}/${sum((c) => c.windowSize)}`,
        submits_per_second: Math.round(sum((c) => (c.intervalMs > 0 ? (c.submits * 1000) / c.intervalMs : 0)) * 10) / 10,
        error_share: answers === 0 ? 0 : Math.round((sum((c) => c.errors) / answers) * 1000) / 1000,
      };
    });
  const waiting = { messages: reports.reduce((s, r) => s + r.waiting.messages, 0), parts: reports.reduce((s, r) => s + r.waiting.parts, 0) };
  return { carriers, waiting };
}
