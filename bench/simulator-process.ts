import { ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';

/** What the simulator's control port reports (GET /stats), as far as the benchmarks read it. */
export interface SimulatorStats {
  counters: { submits: number; receiptsAcked: number };
  sessions: Array<{ bound: boolean }>;
  /** Destinations accepted more than once. */
  duplicated_destinations: number;
  /** Epoch milliseconds of the first and last accepted submit_sm. */
  first_submit_at: number | null;
  last_submit_at: number | null;
}

export interface SimulatorProcess {
  process: ChildProcess;
  port: number;
  stats: () => Promise<SimulatorStats>;
  /** Forgets what it received so far (counters, submits, first and last submit). */
  reset: () => Promise<void>;
}

/**
 * The bundled SMSC simulator in a process of its own (system id `bench`, password `benchpw`), receipts after
 * `receiptDelayMs`. SMSC_SIM_MAIN names another build of it (e.g. an earlier commit's
 * dist/src/smsc-sim/main.js): the simulator's CPU is the yardstick the gateway's is divided by, so two
 * gateways are compared against the same simulator when the simulator itself has changed.
 */
export async function startSimulatorProcess(receiptDelayMs: number, options: { journal?: string } = {}): Promise<SimulatorProcess> {
  const sim = spawn(
    process.execPath,
    [
      process.env.SMSC_SIM_MAIN ?? path.resolve(__dirname, '../src/smsc-sim/main.js'),
      ...['--port', '0', '--control-port', '0', '--system-id', 'bench', '--password', 'benchpw', '--receipt-delay-ms', String(receiptDelayMs)],
      ...(options.journal ? ['--journal', options.journal] : []),
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const { port, control_port: controlPort } = await new Promise<{ port: number; control_port: number }>((resolve, reject) => {
    sim.stdout!.on('data', (chunk: Buffer) => {
      for (const line of chunk.toString().split('\n')) if (line.includes('"listening"')) resolve(JSON.parse(line));
    });
    sim.on('exit', () => reject(new Error('simulator exited')));
  });
  const control = `http://127.0.0.1:${controlPort}`;
  return {
    process: sim,
    port,
    stats: async () => (await (await fetch(`${control}/stats`)).json()) as SimulatorStats,
    reset: async () => void (await (await fetch(`${control}/reset`, { method: 'POST' })).arrayBuffer()),
  };
}
