import { Injectable } from '@nestjs/common';
import type { DeliveryReceipt } from './carriers/carrier';
import { DispatchRepository } from './dispatch.repository';
import { DeliveryMetrics } from './delivery-metrics';
import { WebhookEventsService } from '../webhooks/webhook-events.service';

const MAX_BATCH = 500;
const MAX_WAIT_MS = 10;

interface Waiting {
  receipt: DeliveryReceipt;
  resolve: () => void;
  reject: (err: unknown) => void;
}

/**
 * Stores carrier receipts with group commit: receipts arriving within a few milliseconds share one
 * transaction, and each is acknowledged to the SMSC (deliver_sm_resp) only once that transaction has
 * committed, so none is lost and a campaign's receipts do not cost one transaction each.
 */
@Injectable()
export class ReceiptIntakeService {
  private waiting: Waiting[] = [];
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly repo: DispatchRepository,
    private readonly metrics: DeliveryMetrics,
    private readonly webhooks: WebhookEventsService,
  ) {}

  accept(receipt: DeliveryReceipt): Promise<void> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ receipt, resolve, reject });
      if (this.waiting.length >= MAX_BATCH) void this.flush();
      else this.timer ??= setTimeout(() => void this.flush(), MAX_WAIT_MS);
    });
  }

  private async flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.waiting;
    this.waiting = [];
    if (batch.length === 0) return;
    try {
      let webhookEvents = 0;
      const changed = await this.repo.recordReceipts(
        batch.map((w) => w.receipt),
        async (changes, m) => {
          webhookEvents += await this.webhooks.partsChanged(changes, m);
        },
      );
      batch.forEach((w) => w.resolve());
      this.metrics.partsSettled(changed);
      await this.webhooks.deliverSoon(webhookEvents);
    } catch (err) {
      // Unacknowledged receipts are redelivered by the SMSC.
      batch.forEach((w) => w.reject(err));
    }
  }
}
