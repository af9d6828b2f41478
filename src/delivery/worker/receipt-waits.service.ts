import { Injectable, Logger } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';
import { ReceiptWaitsRepository } from '../state/receipt-waits.repository';
import { DeliveryMetrics } from './delivery-metrics';

/** Parts one step moves the watermark over: one short transaction each, however long the workers were away. */
const PARTS_PER_STEP = 5000;
/** Steps in one run; what is left is taken on the next run. */
const STEPS_PER_RUN = 200;

/**
 * Closes the wait for a receipt of every live part that has had none for RECEIPT_WAIT_MS: carriers that
 * report receipts for the first part only, or for none, leave parts waiting that no receipt will settle.
 * A closed part reads `unconfirmed`; its message stays `sent` (delivered when its first part was, see
 * message-status.ts) and no webhook is sent, since nothing was reported. A receipt that comes later still
 * applies. Safe on many workers at once: a step runs under the watermark row's lock, and another worker's
 * step is skipped meanwhile.
 */
@Injectable()
export class ReceiptWaitsService {
  private readonly logger = new Logger(ReceiptWaitsService.name);

  constructor(
    private readonly waits: ReceiptWaitsRepository,
    private readonly metrics: DeliveryMetrics,
    private readonly config: AppConfig,
  ) {}

  /** Closes every wait that is over (up to STEPS_PER_RUN steps); answers how many parts it closed. */
  async closeDue(): Promise<number> {
    let total = 0;
    for (let step = 0; step < STEPS_PER_RUN; step++) {
      const { closedByCarrier, more } = await this.waits.closeStep(this.config.receiptWaitMs, PARTS_PER_STEP);
      for (const [carrierId, parts] of Object.entries(closedByCarrier)) {
        this.metrics.receiptWaitsClosed(Number(carrierId), parts);
        total += parts;
      }
      if (!more) break;
    }
    if (total > 0) this.logger.log({ msg: 'receipt waits closed without a receipt', parts: total, waitMs: this.config.receiptWaitMs });
    return total;
  }
}
