/**
 * SMSC simulator as a process, for local runs and benchmarks:
 *   node dist/src/smsc-sim/main.js --port 2775 --system-id X --password Y --receipt-delay-ms 5000 --fail-suffix 000 [--control-port 0]
 *     [--resp-delay-ms 0] [--receipts every|first|none] [--id-prefix P] [--journal FILE]
 * stdout carries only JSON lines: {"event":"listening","port":2775,"control_port":…} once listening, then
 * log lines ({"level":"warn","msg":…}) when --verbose. With --control-port an HTTP control answers on
 * loopback (control-server.ts: statistics and faults injected at run time). Several run side by side, each
 * on its own ports. SIGTERM or SIGINT stops it. --journal appends a line per accepted submit_sm to FILE
 * ("<epoch ms> <destination> <part number> <message id>"), written synchronously before its answer, so what
 * a simulator accepted is known even after it was SIGKILLed (bench:dispatch --kill-one-at counts duplicates
 * across carriers from it).
 */
import { openSync, writeSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { concatenatedPartNumber } from './sim-faults';
import type { ReceiptMode } from './sim-faults';
import type { SimLogger } from './sim-types';
import { SmscSimulator } from './smsc-simulator';
import { controlPort, startControlServer } from './control-server';

function jsonLine(value: Record<string, unknown>): void {
  process.stdout.write(`${JSON.stringify(value)}\n`);
}

function integer(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new Error(`--${name} must be a non-negative integer, got ${JSON.stringify(value)}`);
  return n;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: '2775' },
      host: { type: 'string', default: '127.0.0.1' },
      'system-id': { type: 'string' },
      password: { type: 'string' },
      'receipt-delay-ms': { type: 'string' },
      'fail-suffix': { type: 'string' },
      'resp-delay-ms': { type: 'string' },
      'control-port': { type: 'string' },
      receipts: { type: 'string', default: 'every' },
      'id-prefix': { type: 'string' },
      journal: { type: 'string' },
      verbose: { type: 'boolean', default: false },
    },
    strict: true,
  });
  const systemId = values['system-id'];
  const password = values.password;
  if (!systemId || password === undefined) throw new Error('--system-id and --password are required');
  const log = (level: string) => (msg: string, meta?: Record<string, unknown>) => values.verbose && jsonLine({ level, msg, ...meta });
  const logger: SimLogger = { info: log('info'), warn: log('warn'), error: log('error') };
  const simulator = new SmscSimulator({
    port: integer('port', values.port, 2775),
    host: values.host,
    systemId,
    password,
    receiptDelayMs: integer('receipt-delay-ms', values['receipt-delay-ms'], 1000),
    failSuffix: values['fail-suffix'],
    respDelayMs: integer('resp-delay-ms', values['resp-delay-ms'], 0),
    messageIdPrefix: values['id-prefix'],
    logger,
  });
  simulator.faults.setReceipts(values.receipts as ReceiptMode);
  if (values.journal) {
    const fd = openSync(values.journal, 'a');
    simulator.onAccepted = (r) => writeSync(fd, `${r.receivedAt.getTime()} ${r.destinationAddr} ${concatenatedPartNumber(r.udh)} ${r.smscId}\n`);
  }
  const port = await simulator.start();
  const control = values['control-port'] === undefined ? null : await startControlServer(simulator, integer('control-port', values['control-port'], 0));
  jsonLine({ event: 'listening', port, ...(control ? { control_port: controlPort(control) } : {}) });
  const stop = (): void => {
    control?.close();
    void simulator.stop().then(() => {
      jsonLine({ event: 'stopped', submits: simulator.counters.submits });
      process.exit(0);
    });
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

main().catch((err: Error) => {
  process.stderr.write(`error: ${err.message}\n`);
  process.exit(2);
});
