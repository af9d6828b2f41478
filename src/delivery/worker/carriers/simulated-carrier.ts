import { randomUUID } from 'node:crypto';
import { countParts } from '../../../common/sms';
import { SIMULATED_CARRIER_ID, SIMULATED_CARRIER_NAME } from '../../../carriers/carrier-ids';
import type { Carrier, CarrierState, OutboundMessage, SubmissionResult } from './carrier';

/**
 * The carrier of test accounts (and of live accounts in development with no SMSC configured): no
 * network, every part accepted at once. Its receipts are not timers in memory but rows the dispatcher
 * marks due (receipt_due_at), applied by a delayed job and the sweeper, so a restart loses none.
 */
export class SimulatedCarrier implements Carrier {
  readonly id = SIMULATED_CARRIER_ID;
  readonly name = SIMULATED_CARRIER_NAME;
  private submitted = 0;

  async submit(messages: OutboundMessage[]): Promise<SubmissionResult[]> {
    return messages.map((m) => {
      const total = countParts(m.text, m.encoding);
      this.submitted += total;
      return {
        messageId: m.messageId,
        parts: Array.from({ length: total }, (_, i) => ({ carrierId: this.id, partNumber: i + 1, totalParts: total, smscId: `sim-${randomUUID()}` })),
      };
    });
  }

  onReceipt(): void {}
  onInbound(): void {}

  state(): CarrierState {
    return { kind: 'simulator', bindsConfigured: 0, bindsUp: 0, inFlight: 0, submitted: this.submitted, throttled: 0, reconnects: 0 };
  }

  async close(): Promise<void> {}
}
