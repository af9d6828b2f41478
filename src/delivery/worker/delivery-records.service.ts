import { Injectable } from '@nestjs/common';
import { TableStatistics } from '../../database/table-statistics';
import { Tx, UnitOfWork } from '../../database/unit-of-work';
import { DispatchQueue } from '../../queues/dispatch-queue';
import { WebhookEventsService } from '../../webhooks/webhook-events.service';
import { OutcomesRepository } from '../state/outcomes.repository';
import type { PartChange, PartOutcome } from '../state/part-changes';
import { ReceiptsRepository } from '../state/receipts.repository';
import type { DeliveryReceipt } from './carriers/carrier';
import { DeliveryMetrics } from './delivery-metrics';

/** Numbers ending in this fail on the simulator (interface: test accounts). */
export const SIMULATED_FAIL_SUFFIX = '000';
const SIMULATED_RECEIPTS_PER_STEP = 5000;
/** Rows per purge statement: a short delete, never many row locks at once. */
const EARLY_RECEIPT_PURGE_BATCH = 5000;

/**
 * Writes what the carriers report: submission outcomes, receipts, late and simulated receipts. Each
 * write is one transaction that also creates the status webhooks of every part whose status it changed,
 * so a webhook exists exactly when its change does.
 */
@Injectable()
export class DeliveryRecordsService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly outcomes: OutcomesRepository,
    private readonly receipts: ReceiptsRepository,
    private readonly webhooks: WebhookEventsService,
    private readonly queue: DispatchQueue,
    private readonly metrics: DeliveryMetrics,
    private readonly statistics: TableStatistics,
  ) {}

  async recordOutcomes(outcomes: PartOutcome[]): Promise<void> {
    if (outcomes.length === 0) return;
    const changed = await this.uow.run(async (tx) => {
      const simulatedDue = latest(outcomes.map((o) => o.receiptDueAt));
      if (simulatedDue) tx.afterCommit(() => this.queue.simulatedReceiptsDue(simulatedDue));
      // Without statistics a cached plan made while the table was small can walk every part per receipt.
      tx.afterCommit(() => this.statistics.grew('message_parts', outcomes.length));
      return this.withWebhooks(await this.outcomes.recordOutcomes(outcomes, tx), tx);
    });
    const refused = outcomes.filter((o) => !o.smscId).length;
    this.metrics.partsSubmitted(outcomes.length - refused, refused);
    this.metrics.partsSettled(changed);
  }

  async recordReceipts(receipts: DeliveryReceipt[]): Promise<void> {
    if (receipts.length === 0) return;
    const changed = await this.uow.run(async (tx) => this.withWebhooks(await this.receipts.recordReceipts(receipts, tx), tx));
    this.metrics.partsSettled(changed);
  }

  /** Receipts stored before their part's submission was recorded. */
  async applyLateReceipts(): Promise<number> {
    const changed = await this.uow.run(async (tx) => this.withWebhooks(await this.receipts.applyLateReceipts(tx), tx));
    this.metrics.partsSettled(changed);
    return changed.length;
  }

  /** Deletes stored early receipts once applied (an hour on) or never matched (a week on), in short batches. */
  async purgeEarlyReceipts(): Promise<number> {
    for (let deleted = 0; ;) {
      const step = await this.uow.run((tx) => this.receipts.purgeEarlyReceipts(EARLY_RECEIPT_PURGE_BATCH, tx));
      deleted += step;
      if (step < EARLY_RECEIPT_PURGE_BATCH) return deleted;
    }
  }

  /** One step of due simulated receipts; 0 when none is due. */
  async applyDueSimulatedReceipts(): Promise<number> {
    const changed = await this.uow.run(async (tx) => this.withWebhooks(await this.receipts.applyDueSimulatedReceipts(SIMULATED_FAIL_SUFFIX, SIMULATED_RECEIPTS_PER_STEP, tx), tx));
    this.metrics.partsSettled(changed);
    return changed.length;
  }

  /** The status webhooks of the parts a write changed, in its transaction; answers the changes. */
  private async withWebhooks(changed: PartChange[], tx: Tx): Promise<PartChange[]> {
    await this.webhooks.partsChanged(changed, tx);
    return changed;
  }
}

function latest(dates: Array<Date | null>): Date | null {
  return dates.reduce<Date | null>((max, d) => (d && (!max || d > max) ? d : max), null);
}
