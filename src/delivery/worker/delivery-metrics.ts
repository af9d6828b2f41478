import { Injectable } from '@nestjs/common';
import { Counter, Histogram } from 'prom-client';
import { MetricsRegistry } from '../../metrics/metrics-registry';
import type { PartChange } from '../state/part-changes';

/** Dispatch rate, outcomes and receipt lag, for GET /metrics. */
@Injectable()
export class DeliveryMetrics {
  private readonly submitted: Counter;
  private readonly refused: Counter;
  private readonly settled: Counter;
  private readonly receiptLag: Histogram;
  private readonly unconfirmed: Counter;

  constructor(registry: MetricsRegistry) {
    this.submitted = registry.counter('sms_parts_submitted_total', 'Message parts accepted by a carrier');
    this.refused = registry.counter('sms_parts_refused_total', 'Message parts refused permanently at submission');
    this.settled = registry.counter('sms_parts_settled_total', 'Message parts with a final receipt', ['status'], [{ status: 'delivered' }, { status: 'failed' }]);
    this.unconfirmed = registry.counter('sms_parts_unconfirmed_total', 'Message parts whose wait for a receipt closed without one (RECEIPT_WAIT_MS)', ['carrier_id']);
    this.receiptLag = registry.histogram('sms_receipt_lag_seconds', 'Time from submission to the part’s final receipt being applied', [0.5, 1, 2, 5, 10, 30, 60, 300, 1800]);
  }

  partsSubmitted(accepted: number, refused: number): void {
    if (accepted) this.submitted.inc(accepted);
    if (refused) this.refused.inc(refused);
  }

  receiptWaitsClosed(carrierId: number, parts: number): void {
    this.unconfirmed.inc({ carrier_id: String(carrierId) }, parts);
  }

  partsSettled(changes: PartChange[]): void {
    for (const change of changes) {
      this.settled.inc({ status: change.status });
      this.receiptLag.observe(change.lagSeconds);
    }
  }
}
