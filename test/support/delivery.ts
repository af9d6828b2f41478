import { DataSource } from 'typeorm';
import { SmscSimulator } from '../../src/smsc-sim/smsc-simulator';
import type { SmscSimulatorOptions } from '../../src/smsc-sim/sim-types';
import type { AppConfig } from '../../src/config/app-config';
import type { TestApp } from './test-app';
import { MESSAGE_STATUS, WITH_PART_STATUS } from '../../src/delivery/state/message-status';

export const SMSC_CREDENTIALS = { systemId: 'esme-test', password: 'secret12' };

/** A real SMPP peer on loopback for the delivery tests. */
export async function startSmsc(options: Partial<SmscSimulatorOptions> = {}): Promise<{ smsc: SmscSimulator; port: number }> {
  const smsc = new SmscSimulator({ ...SMSC_CREDENTIALS, receiptDelayMs: 200, ...options });
  const port = await smsc.start();
  return { smsc, port };
}

/** App settings pointing the live carrier at the simulator, with delays shrunk for tests. */
export function smppSettings(port: number, extra: Partial<AppConfig> = {}): Partial<AppConfig> {
  return {
    smppHost: '127.0.0.1',
    smppPort: port,
    smppSystemId: SMSC_CREDENTIALS.systemId,
    smppPassword: SMSC_CREDENTIALS.password,
    smppBinds: 2,
    smppWindow: 10,
    sweepIntervalMs: 200,
    claimTimeoutMs: 3000,
    testReceiptDelayMs: 300,
    ...extra,
  };
}

export async function statusCounts(t: TestApp, sendId: number): Promise<Record<string, number>> {
  const rows: Array<{ status: string; n: number }> = await t.app
    .get(DataSource)
    .query(`SELECT ${MESSAGE_STATUS} AS status, count(*)::int AS n FROM messages m ${WITH_PART_STATUS} WHERE m.send_id = $1 GROUP BY 1`, [sendId]);
  return Object.fromEntries(rows.map((r) => [r.status, r.n]));
}

/** Submissions the simulator accepted, per destination number. */
export function submitsByDestination(smsc: SmscSimulator): Map<string, number> {
  const counts = new Map<string, number>();
  for (const s of smsc.submits) if (s.smscId) counts.set(s.destinationAddr, (counts.get(s.destinationAddr) ?? 0) + 1);
  return counts;
}
