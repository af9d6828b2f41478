import { WAIT_SCALE } from './wait';
import { ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { SMSC_CREDENTIALS } from './delivery';
import { SmscControl } from './smsc-control';
import type { ReceiptMode } from '../../src/smsc-sim/sim-faults';

export { SmscControl } from './smsc-control';
export type { SmscStats } from './smsc-control';

const MAIN = path.resolve(__dirname, '../../dist/src/main.js');
const SMSC = path.resolve(__dirname, '../../dist/src/smsc-sim/main.js');

export type Exit = { code: number | null; signal: NodeJS.Signals | null };

/**
 * A real process of the built service (or the SMSC simulator), as operators run it: its port is read from
 * its own start-up log line; stderr and the last log lines are kept to explain a failure.
 */
export class ServiceProcess {
  readonly exited: Promise<Exit>;
  readonly tail: string[] = [];
  /** Every warning and error it logged (pino level 40 and up). */
  readonly warnings: Array<Record<string, unknown>> = [];
  /** How many lines were not JSON log lines (a library writing to the console, say); the first 100 are kept. */
  unparsedCount = 0;
  readonly unparsed: string[] = [];
  private readonly lineWaiters: Array<{ match: (line: Record<string, unknown>) => boolean; resolve: (line: Record<string, unknown>) => void }> = [];

  constructor(
    readonly name: string,
    readonly child: ChildProcess,
  ) {
    this.exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
    for (const stream of [child.stdout!, child.stderr!]) {
      createInterface({ input: stream }).on('line', (line) => this.onLine(line));
    }
  }

  /** Resolves with the first JSON log line that matches (or rejects if the process exits first). */
  waitForLine(match: (line: Record<string, unknown>) => boolean, timeoutMs = 30_000): Promise<Record<string, unknown>> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${this.name}: no matching log line in ${timeoutMs} ms\n${this.tail.join('\n')}`)), timeoutMs * WAIT_SCALE);
      void this.exited.then((exit) => reject(new Error(`${this.name} exited (${JSON.stringify(exit)}) before it was ready\n${this.tail.join('\n')}`)));
      this.lineWaiters.push({
        match,
        resolve: (line) => {
          clearTimeout(timer);
          resolve(line);
        },
      });
    });
  }

  /** SIGTERM (graceful) or SIGKILL (a crash), and its exit. */
  async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<Exit> {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill(signal);
    return this.exited;
  }

  private onLine(line: string): void {
    this.tail.push(line.slice(0, 500));
    if (this.tail.length > 50) this.tail.shift();
    let parsed: Record<string, unknown>;
    try {
      parsed = JSON.parse(line) as Record<string, unknown>;
    } catch {
      if (this.unparsedCount++ < 100) this.unparsed.push(line.slice(0, 300));
      return;
    }
    if (typeof parsed.level === 'number' && parsed.level >= 40) this.warnings.push(parsed);
    for (const waiter of [...this.lineWaiters]) {
      if (waiter.match(parsed)) {
        this.lineWaiters.splice(this.lineWaiters.indexOf(waiter), 1);
        waiter.resolve(parsed);
      }
    }
  }
}

function spawnNode(name: string, script: string, args: string[], env: Record<string, string>): ServiceProcess {
  const child = spawn(process.execPath, [script, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  return new ServiceProcess(name, child);
}

export interface RunningService {
  process: ServiceProcess;
  port: number;
  url: string;
}

/** `node dist/src/main.js` with APP_ROLE=api on this test file's database and Redis prefix. */
export async function startApi(name: string, env: Record<string, string> = {}): Promise<RunningService> {
  const proc = spawnNode(name, MAIN, [], { APP_ROLE: 'api', PORT: '0', LOG_LEVEL: 'info', ...env });
  const line = await proc.waitForLine((l) => l.msg === 'listening');
  const port = Number(line.port);
  return { process: proc, port, url: `http://127.0.0.1:${port}` };
}

/** `node dist/src/main.js` with APP_ROLE=worker, its carrier bound to the SMSC at smscPort. */
export async function startWorker(name: string, smscPort: number, env: Record<string, string> = {}): Promise<RunningService> {
  const proc = spawnNode(name, MAIN, [], {
    APP_ROLE: 'worker',
    PORT: '0',
    LOG_LEVEL: 'info',
    SMPP_HOST: '127.0.0.1',
    SMPP_PORT: String(smscPort),
    SMPP_SYSTEM_ID: SMSC_CREDENTIALS.systemId,
    SMPP_PASSWORD: SMSC_CREDENTIALS.password,
    ...env,
  });
  const line = await proc.waitForLine((l) => l.msg === 'worker started');
  const port = Number(line.port);
  return { process: proc, port, url: `http://127.0.0.1:${port}` };
}

export interface SmscProcess {
  process: ServiceProcess;
  port: number;
  control: SmscControl;
}

export interface SmscProcessOptions {
  /** Names the process in failure messages. Default 'smsc'. */
  name?: string;
  /** Default SMSC_CREDENTIALS. */
  systemId?: string;
  password?: string;
  /** Default 200. */
  receiptDelayMs?: number;
  respDelayMs?: number;
  receipts?: ReceiptMode;
  messageIdPrefix?: string;
}

/** The SMSC simulator as its own process (src/smsc-sim/main.ts) with its HTTP control on loopback. */
export async function startSmscProcess(options: SmscProcessOptions = {}): Promise<SmscProcess> {
  const proc = spawnNode(
    options.name ?? 'smsc',
    SMSC,
    [
      '--port',
      '0',
      '--control-port',
      '0',
      '--system-id',
      options.systemId ?? SMSC_CREDENTIALS.systemId,
      '--password',
      options.password ?? SMSC_CREDENTIALS.password,
      '--receipt-delay-ms',
      String(options.receiptDelayMs ?? 200),
      '--resp-delay-ms',
      String(options.respDelayMs ?? 0),
      '--receipts',
      options.receipts ?? 'every',
      ...(options.messageIdPrefix === undefined ? [] : ['--id-prefix', options.messageIdPrefix]),
    ],
    {},
  );
  const line = await proc.waitForLine((l) => l.event === 'listening');
  return { process: proc, port: Number(line.port), control: new SmscControl(Number(line.control_port)) };
}

/** A metric of a running service, summed over its label sets (0 when absent). */
export async function metricValue(service: RunningService, name: string): Promise<number> {
  const text = await (await fetch(`${service.url}/metrics`)).text();
  const lines = text.split('\n').filter((l) => l.startsWith(`${name} `) || l.startsWith(`${name}{`));
  return lines.reduce((sum, l) => sum + Number(l.slice(l.lastIndexOf(' ') + 1)), 0);
}
