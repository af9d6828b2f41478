import { WAIT_SCALE } from './wait';
import { ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
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

/** Every process this file started that has not exited yet. */
const running = new Set<ServiceProcess>();

/**
 * Stops whatever a test file left running: SIGTERM, then SIGKILL after `graceMs`. Registered below as a
 * file-level afterAll, so a beforeAll that fails half-way (one of three processes never ready, its
 * siblings' handles lost with the rejected Promise.all) still leaves no process behind to keep jest from
 * exiting.
 */
export async function stopStartedProcesses(graceMs = 10_000): Promise<void> {
  await Promise.all(
    [...running].map(async (proc) => {
      const kill = setTimeout(() => proc.child.kill('SIGKILL'), graceMs);
      await proc.stop();
      clearTimeout(kill);
    }),
  );
}

// Hooks called while a test file loads its imports belong to the file's top level: they run after the
// file's own afterAll hooks, so a describe's orderly teardown goes first.
if (typeof afterAll === 'function') afterAll(() => stopStartedProcesses(), 60_000);
// A jest run interrupted (or ended by --forceExit) still takes its children with it.
process.once('exit', () => {
  for (const proc of running) proc.child.kill('SIGKILL');
});

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
    running.add(this);
    this.exited = new Promise((resolve) =>
      child.on('exit', (code, signal) => {
        running.delete(this);
        resolve({ code, signal });
      }),
    );
    for (const stream of [child.stdout!, child.stderr!]) {
      createInterface({ input: stream }).on('line', (line) => this.onLine(line));
    }
  }

  /** Resolves with the first JSON log line that matches (or rejects if the process exits first). */
  waitForLine(match: (line: Record<string, unknown>) => boolean, timeoutMs = 30_000): Promise<Record<string, unknown>> {
    return new Promise((resolve, reject) => {
      const scaledMs = timeoutMs * WAIT_SCALE;
      const timer = setTimeout(() => reject(new Error(`${this.name}: no matching log line in ${scaledMs} ms\n${this.tail.join('\n')}`)), scaledMs);
      void this.exited.then((exit) => {
        // A pending timer would hold jest open for the whole timeout after the process is gone.
        clearTimeout(timer);
        reject(new Error(`${this.name} exited (${JSON.stringify(exit)}) before it was ready\n${this.tail.join('\n')}`));
      });
      this.lineWaiters.push({
        match,
        resolve: (line) => {
          clearTimeout(timer);
          resolve(line);
        },
      });
    });
  }

  /** It has not exited (nor been killed) yet. */
  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** SIGTERM (graceful) or SIGKILL (a crash), and its exit. */
  async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<Exit> {
    if (this.running) this.child.kill(signal);
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

/** The names of those services that have exited (or been killed). */
export function exitedServices(services: RunningService[]): string[] {
  return services.filter((s) => !s.process.running).map((s) => s.process.name);
}

/** `node dist/src/main.js` with APP_ROLE=api on this test file's database and Redis prefix. */
export async function startApi(name: string, env: Record<string, string> = {}): Promise<RunningService> {
  const proc = spawnNode(name, MAIN, [], { APP_ROLE: 'api', PORT: '0', LOG_LEVEL: 'info', ...env });
  const line = await proc.waitForLine((l) => l.msg === 'listening');
  const port = Number(line.port);
  return { process: proc, port, url: `http://127.0.0.1:${port}` };
}

/**
 * `node dist/src/main.js` with APP_ROLE=worker, its SMPP_* carrier bound to the SMSC at smscPort; with
 * smscPort null it has no SMPP_* carrier and sends through the carriers table only (give CARRIER_SECRET_KEY).
 */
export async function startWorker(name: string, smscPort: number | null, env: Record<string, string> = {}): Promise<RunningService> {
  const smpp: Record<string, string> =
    smscPort === null ? {} : { SMPP_HOST: '127.0.0.1', SMPP_PORT: String(smscPort), SMPP_SYSTEM_ID: SMSC_CREDENTIALS.systemId, SMPP_PASSWORD: SMSC_CREDENTIALS.password };
  const proc = spawnNode(name, MAIN, [], { APP_ROLE: 'worker', PORT: '0', LOG_LEVEL: 'info', ...smpp, ...env });
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
  /** Appends each accepted submit_sm to this file before answering it (--journal; read it with readSmscJournal). */
  journal?: string;
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
      ...(options.journal === undefined ? [] : ['--journal', options.journal]),
    ],
    {},
  );
  const line = await proc.waitForLine((l) => l.event === 'listening');
  return { process: proc, port: Number(line.port), control: new SmscControl(Number(line.control_port)) };
}

/** One submit_sm a simulator accepted, from its --journal (written before the answer, so it outlives a SIGKILL). */
export interface JournalEntry {
  at: number;
  to: string;
}

export function readSmscJournal(file: string): JournalEntry[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [at, to] = line.split(' ');
      return { at: Number(at), to };
    });
}

/** A metric of a running service, summed over its label sets (0 when absent). */
export async function metricValue(service: RunningService, name: string): Promise<number> {
  const text = await (await fetch(`${service.url}/metrics`)).text();
  const lines = text.split('\n').filter((l) => l.startsWith(`${name} `) || l.startsWith(`${name}{`));
  return lines.reduce((sum, l) => sum + Number(l.slice(l.lastIndexOf(' ') + 1)), 0);
}
