import { Injectable } from '@nestjs/common';
import { TableStatistics } from '../database/table-statistics';
import { Tx, UnitOfWork } from '../database/unit-of-work';
import { DispatchQueue } from '../queues/dispatch-queue';
import { WebhookEventsService } from '../webhooks/webhook-events.service';
import type { DeliveryReceipt } from './carriers/carrier';
import { DeliveryMetrics } from './delivery-metrics';
import { OutcomesRepository } from './outcomes.repository';
import type { PartChange, PartOutcome } from './part-changes';
import { ReceiptsRepository } from './receipts.repository';

/** Numbers ending in this fail on the simulator (interface: test accounts). */
export const SIMULATED_FAIL_SUFFIX = '000';
const SIMULATED_RECEIPTS_PER_STEP = 5000;

/**
 * Writes what the carriers report: submission outcomes, receipts, late and simulated receipts. Each
 * write is one transaction that also settles the messages and creates the status webhooks of every part
 * that changed, so a webhook exists exactly when its change does.
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
    await this.settle(async (tx) => {
      const simulatedDue = latest(outcomes.map((o) => o.receiptDueAt));
      if (simulatedDue) tx.afterCommit(() => this.queue.simulatedReceiptsDue(simulatedDue));
      // Without statistics a cached plan made while the table was small can walk every part per receipt.
      tx.afterCommit(() => this.statistics.grew('message_parts', outcomes.length));
      return this.outcomes.recordOutcomes(outcomes, tx);
    });
    const refused = outcomes.filter((o) => !o.smscId).length;
    this.metrics.partsSubmitted(outcomes.length - refused, refused);
  }

  async recordReceipts(receipts: DeliveryReceipt[]): Promise<void> {
    if (receipts.length === 0) return;
    await this.settle((tx) => this.receipts.recordReceipts(receipts, tx));
  }

  /** Receipts stored before their part's submission was recorded. */
  async applyLateReceipts(): Promise<number> {
    return (await this.settle((tx) => this.receipts.applyLateReceipts(tx))).length;
  }

  /** One step of due simulated receipts; 0 when none is due. */
  async applyDueSimulatedReceipts(): Promise<number> {
    return (await this.settle((tx) => this.receipts.applyDueSimulatedReceipts(SIMULATED_FAIL_SUFFIX, SIMULATED_RECEIPTS_PER_STEP, tx))).length;
  }

  private async settle(work: (tx: Tx) => Promise<PartChange[]>): Promise<PartChange[]> {
    const changes = await this.uow.run(async (tx) => {
      const changed = await work(tx);
      await this.webhooks.partsChanged(changed, (ids) => this.receipts.messagesOf(ids, tx), tx);
      return changed;
    });
    this.metrics.partsSettled(changes);
    return changes;
  }
}

function latest(dates: Array<Date | null>): Date | null {
  return dates.reduce<Date | null>((max, d) => (d && (!max || d > max) ? d : max), null);
}
