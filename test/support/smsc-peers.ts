/**
 * Several SMSC simulators at once, as several carriers: each on its own SMPP port with its own HTTP control
 * (a typed SmscControl, the same whether the simulator runs in this process or in its own). In this
 * process the simulator object is at hand too; as processes they can be killed like a carrier that dies.
 *
 *   const peers = await startSmscPeers(2);                    // in this process
 *   const peers = await startSmscPeers(2, { processes: true }); // node dist/src/smsc-sim/main.js each (build first)
 *   await peers[0].control.setSubmitError(STATUS.ESME_RTHROTTLED, 0.3);
 *   afterAll(() => stopSmscPeers(peers));
 */
import type http from 'node:http';
import path from 'node:path';
import { controlPort, startControlServer } from '../../src/smsc-sim/control-server';
import type { ReceiptMode } from '../../src/smsc-sim/sim-faults';
import type { SmscSimulatorOptions } from '../../src/smsc-sim/sim-types';
import { SmscSimulator } from '../../src/smsc-sim/smsc-simulator';
import { SMSC_CREDENTIALS } from './delivery';
import { ServiceProcess, startSmscProcess } from './processes';
import { SmscControl } from './smsc-control';

export interface SmscPeer {
  /** smsc-1, smsc-2, … */
  name: string;
  /** Its journal file (as a process with journalDir), else null. */
  journal: string | null;
  /** SMPP port on 127.0.0.1. */
  port: number;
  control: SmscControl;
  /** The simulator itself when it runs in this process, else null. */
  simulator: SmscSimulator | null;
  /** Its process when it runs in its own (SIGKILL it to lose the carrier), else null. */
  process: ServiceProcess | null;
  stop(): Promise<void>;
}

export interface SmscPeerOptions {
  /** Each in its own process (from dist/: run `node scripts/build-if-stale.mjs` first) instead of in this one. */
  processes?: boolean;
  /** Default SMSC_CREDENTIALS for every peer. */
  systemId?: string;
  password?: string;
  /** Default 200 ms. */
  receiptDelayMs?: number;
  respDelayMs?: number;
  receipts?: ReceiptMode;
  /** Message id prefix of peer i (0-based). Default: random per peer; give the same to make two carriers' ids collide. */
  messageIdPrefix?: (index: number) => string;
  /** As processes: each keeps a journal of what it accepted (`<dir>/smsc-N.journal`, readSmscJournal), kept after a SIGKILL. */
  journalDir?: string;
  /** More settings for a simulator in this process (ignored for processes). */
  simulator?: Partial<SmscSimulatorOptions>;
}

/** Starts `count` simulators side by side; stops those already started if one fails to start. */
export async function startSmscPeers(count: number, options: SmscPeerOptions = {}): Promise<SmscPeer[]> {
  const started = await Promise.allSettled(Array.from({ length: count }, (_, i) => startPeer(i, options)));
  const peers = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const failed = started.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failed) {
    await stopSmscPeers(peers);
    throw failed.reason;
  }
  return peers;
}

export async function stopSmscPeers(peers: SmscPeer[] | undefined): Promise<void> {
  await Promise.all((peers ?? []).map((p) => p.stop()));
}

async function startPeer(index: number, options: SmscPeerOptions): Promise<SmscPeer> {
  const name = `smsc-${index + 1}`;
  const messageIdPrefix = options.messageIdPrefix?.(index);
  if (options.processes) {
    const journal = options.journalDir === undefined ? undefined : path.join(options.journalDir, `${name}.journal`);
    const smsc = await startSmscProcess({ ...options, name, messageIdPrefix, journal });
    return { name, journal: journal ?? null, port: smsc.port, control: smsc.control, simulator: null, process: smsc.process, stop: async () => void (await smsc.process.stop()) };
  }
  const simulator = new SmscSimulator({
    systemId: options.systemId ?? SMSC_CREDENTIALS.systemId,
    password: options.password ?? SMSC_CREDENTIALS.password,
    receiptDelayMs: options.receiptDelayMs ?? 200,
    respDelayMs: options.respDelayMs ?? 0,
    ...(messageIdPrefix === undefined ? {} : { messageIdPrefix }),
    ...options.simulator,
  });
  if (options.receipts) simulator.faults.setReceipts(options.receipts);
  const port = await simulator.start();
  let server: http.Server;
  try {
    server = await startControlServer(simulator, 0);
  } catch (err) {
    await simulator.stop();
    throw err;
  }
  const stop = async (): Promise<void> => {
    server.closeAllConnections();
    await Promise.all([new Promise<void>((resolve) => server.close(() => resolve())), simulator.stop()]);
  };
  return { name, journal: null, port, control: new SmscControl(controlPort(server)), simulator, process: null, stop };
}
