/**
 * Submission throughput of the SMPP carrier against the SMSC simulator (not a test; prints one JSON line).
 *   npm run bench:smpp -- [--messages 20000] [--binds 4] [--window 50]
 *        [--port P --system-id X --password Y]   (an external simulator; otherwise one runs in-process)
 *        [--receipt-delay-ms 60000]              (in-process simulator only; receipts sent while submitting load both ends)
 */
import { parseArgs } from 'node:util';
import type { OutboundMessage } from '../src/delivery/worker/carriers/carrier';
import { SmppCarrier } from '../src/delivery/worker/carriers/smpp/smpp-carrier';
import { SmscSimulator } from '../src/smsc-sim/smsc-simulator';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      messages: { type: 'string', default: '20000' },
      binds: { type: 'string', default: '4' },
      window: { type: 'string', default: '50' },
      port: { type: 'string' },
      'system-id': { type: 'string', default: 'bench' },
      password: { type: 'string', default: 'bench' },
      'receipt-delay-ms': { type: 'string', default: '600000' },
    },
  });
  const count = Number(values.messages);
  const systemId = values['system-id'] as string;
  const password = values.password as string;
  let simulator: SmscSimulator | null = null;
  let port = Number(values.port);
  if (!values.port) {
    simulator = new SmscSimulator({ systemId, password, receiptDelayMs: Number(values['receipt-delay-ms']) });
    port = await simulator.start();
  }
  const carrier = new SmppCarrier({
    host: '127.0.0.1',
    port,
    systemId,
    password,
    tls: false,
    binds: Number(values.binds),
    window: Number(values.window),
    tpsPerBind: 0,
    enquireLinkMs: 30_000,
    reconnectBaseMs: 100,
    reconnectMaxMs: 2_000,
    submitTimeoutMs: 10_000,
  });
  let receipts = 0;
  carrier.onReceipt(() => void receipts++);
  await carrier.start();
  while (carrier.state().bindsUp < Number(values.binds)) await new Promise((resolve) => setTimeout(resolve, 10));

  const messages: OutboundMessage[] = Array.from({ length: count }, (_, i) => ({
    messageId: `b${i}`,
    from: 'Bench',
    to: `614${String(i).padStart(8, '0')}`,
    text: `Benchmark message ${i}`,
    encoding: 'gsm7',
  }));
  const started = process.hrtime.bigint();
  const results = await carrier.submit(messages);
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const failed = results.filter((r) => r.parts.some((p) => p.smscId === null)).length;
  process.stdout.write(
    `${JSON.stringify({
      messages: count,
      binds: Number(values.binds),
      window: Number(values.window),
      simulator: simulator ? 'in-process' : `port ${port}`,
      seconds: Number(seconds.toFixed(3)),
      perSecond: Math.round(count / seconds),
      failed,
      receiptsDuringRun: receipts,
    })}\n`,
  );
  await carrier.close();
  await simulator?.stop();
}

main().catch((err: Error) => {
  process.stderr.write(`error: ${err.stack ?? err.message}\n`);
  process.exit(1);
});
