/**
 * A typed client of the SMSC simulator's HTTP control (src/smsc-sim/control-server.ts), the same for a
 * simulator in this process or in its own: what it received, and faults injected at run time. Every call
 * throws when the control answers anything but 2xx, so a mistyped fault fails the test that set it.
 */
import type { FaultSettings, ReceiptMode } from '../../src/smsc-sim/sim-faults';

export interface SmscStats {
  accepted: number;
  distinct_destinations: number;
  duplicated_destinations: number;
  /** submit_sm answered with an error, by status in hexadecimal ("0x58"). */
  refused_by_status: Record<string, number>;
  counters: Record<string, number>;
  sessions: Array<{ bound: boolean; submits: number; maxUnanswered: number }>;
  first_submit_at: number | null;
  last_submit_at: number | null;
}

/** What every fault control answers: the faults in force after it. */
export type SmscFaults = FaultSettings & { ignoreSubmits: boolean; respDelayMs: number };

export class SmscControl {
  constructor(readonly port: number) {}

  async stats(): Promise<SmscStats> {
    return this.call<SmscStats>('GET', '/stats');
  }

  /** Accepted submit_sm per destination, for destinations starting with `prefix`. */
  async destinations(prefix: string): Promise<Map<string, number>> {
    return new Map(Object.entries(await this.call<Record<string, number>>('GET', `/destinations?prefix=${encodeURIComponent(prefix)}`)));
  }

  /** Destroys every connection now (every bind is lost; the ESME binds again unless binds are refused). */
  async dropConnections(): Promise<void> {
    await this.call('POST', '/drop-connections');
  }

  /** Answers each submit_sm `ms` late. */
  async setRespDelay(ms: number): Promise<void> {
    await this.call('POST', `/resp-delay?ms=${ms}`);
  }

  /** A hung SMSC: submit_sm recorded, never answered (no submit_sm_resp, no receipt). */
  async ignoreSubmits(on: boolean): Promise<void> {
    await this.call('POST', `/ignore-submits?on=${on}`);
  }

  /** Answers every bind with `status` and closes the connection; 0 accepts binds again. */
  async refuseBinds(status: number): Promise<SmscFaults> {
    return this.call('POST', `/refuse-binds?status=${status}`);
  }

  /** Answers `share` (0..1, spread evenly) of submit_sm with `status`; 0 removes that status's share. */
  async setSubmitError(status: number, share: number): Promise<SmscFaults> {
    return this.call('POST', `/submit-errors?status=${status}&share=${share}`);
  }

  /** Answers the next `n` submit_sm with `status`. */
  async failNext(n: number, status: number): Promise<SmscFaults> {
    return this.call('POST', `/fail-next?n=${n}&status=${status}`);
  }

  /** Receipts for every part, the first part of a concatenated message only, or none. */
  async setReceipts(mode: ReceiptMode): Promise<SmscFaults> {
    return this.call('POST', `/receipts?mode=${mode}`);
  }

  async faults(): Promise<SmscFaults> {
    return this.call('GET', '/faults');
  }

  /** Every fault off: binds accepted, no submit errors, answering at the start-up delay, receipts for every part. */
  async clearFaults(): Promise<SmscFaults> {
    return this.call('POST', '/clear-faults');
  }

  /** Forgets what it received (submits, counters); faults stay. */
  async reset(): Promise<void> {
    await this.call('POST', '/reset');
  }

  private async call<T>(method: 'GET' | 'POST', pathAndQuery: string): Promise<T> {
    const res = await fetch(`http://127.0.0.1:${this.port}${pathAndQuery}`, { method });
    const body = (await res.json()) as T;
    if (!res.ok) throw new Error(`SMSC control ${method} ${pathAndQuery} answered ${res.status}: ${JSON.stringify(body)}`);
    return body;
  }
}
