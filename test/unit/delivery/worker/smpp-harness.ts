/** A simulator and a carrier wired on loopback with short timers, for the carrier's tests. */
import type { DeliveryReceipt, InboundSms, OutboundMessage } from '../../../../src/delivery/worker/carriers/carrier';
import { SmppCarrier } from '../../../../src/delivery/worker/carriers/smpp/smpp-carrier';
import type { SmppCarrierOptions } from '../../../../src/delivery/worker/carriers/smpp/smpp-options';
import type { SmscSimulatorOptions } from '../../../../src/smsc-sim/sim-types';
import { SmscSimulator } from '../../../../src/smsc-sim/smsc-simulator';

export const SYSTEM_ID = 'esme1';
export const PASSWORD = 'secret12';

export interface Harness {
  simulator: SmscSimulator;
  carrier: SmppCarrier;
  receipts: DeliveryReceipt[];
  inbound: InboundSms[];
  close(): Promise<void>;
}

export async function startHarness(carrierOptions: Partial<SmppCarrierOptions> = {}, simulatorOptions: Partial<SmscSimulatorOptions> = {}): Promise<Harness> {
  const simulator = new SmscSimulator({ systemId: SYSTEM_ID, password: PASSWORD, receiptDelayMs: 20, deliverRetryMs: 50, ...simulatorOptions });
  const port = await simulator.start();
  const carrier = new SmppCarrier({
    host: '127.0.0.1',
    port,
    systemId: SYSTEM_ID,
    password: PASSWORD,
    tls: false,
    binds: 1,
    window: 10,
    tpsPerBind: 0,
    enquireLinkMs: 5_000,
    reconnectBaseMs: 20,
    reconnectMaxMs: 200,
    submitTimeoutMs: 2_000,
    throttleBackoffMs: 10,
    throttleBackoffMaxMs: 50,
    ...carrierOptions,
  });
  const receipts: DeliveryReceipt[] = [];
  const inbound: InboundSms[] = [];
  carrier.onReceipt((r) => void receipts.push(r));
  carrier.onInbound((m) => void inbound.push(m));
  return {
    simulator,
    carrier,
    receipts,
    inbound,
    async close() {
      await carrier.close();
      await simulator.stop();
    },
  };
}

/** Polls until `predicate` holds; rejects with `what` after `timeoutMs` (a guard, not a timing assertion). */
export async function waitFor(what: string, predicate: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

let counter = 0;
export function message(overrides: Partial<OutboundMessage> = {}): OutboundMessage {
  counter++;
  return { messageId: `m${counter}`, from: 'MyBrand', to: `6141200${String(counter % 10000).padStart(4, '0')}`, text: 'Hello there', encoding: 'gsm7', ...overrides };
}
