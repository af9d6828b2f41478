import { Injectable, Logger } from '@nestjs/common';
import { Clock } from '../common/time/clock';
import { AppConfig } from '../config/app-config';
import { PaymentProviderUnavailable } from '../payments/payment-provider';
import { InvoiceMailer } from './invoice-mailer.service';
import { PurchaseSettler } from './purchase-settler.service';
import { PurchasesRepository } from './purchases.repository';

const BATCH = 100;

export interface ReconcileReport {
  checked: number;
  settled: Record<string, number>;
  still_unsettled: number;
  invoices_emailed: number;
}

/**
 * Settles purchases a crash or a lost provider answer left `created` or `charged`: it asks the provider
 * again with the purchase's own idempotency key (the provider answers its record of that charge, never a
 * second charge), then records and fulfils as the request would have. So no purchase stays charged
 * without being fulfilled, or fulfilled without being charged. It also sends invoice mails a crash lost.
 */
@Injectable()
export class PurchaseReconciler {
  private readonly logger = new Logger(PurchaseReconciler.name);

  constructor(
    private readonly repo: PurchasesRepository,
    private readonly settler: PurchaseSettler,
    private readonly invoices: InvoiceMailer,
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  /** `olderThanMs`: only purchases unsettled for at least this long (default: the configured delay). */
  async run(olderThanMs = this.config.purchaseReconcileAfterMs): Promise<ReconcileReport> {
    const before = new Date(this.clock.now().getTime() - olderThanMs);
    const ids = await this.repo.unsettledIds(before, BATCH);
    const report: ReconcileReport = { checked: ids.length, settled: {}, still_unsettled: 0, invoices_emailed: 0 };
    for (const id of ids) {
      try {
        const p = await this.settler.settle(id);
        report.settled[p.state] = (report.settled[p.state] ?? 0) + 1;
      } catch (err) {
        if (!(err instanceof PaymentProviderUnavailable)) throw err;
        report.still_unsettled++;
        this.logger.warn({ msg: 'purchase still unsettled: provider unavailable', purchase_id: id, err: err.message });
      }
    }
    await this.invoices.drain();
    for (const id of await this.repo.invoicesNotEmailed(before, BATCH)) if (await this.invoices.send(id)) report.invoices_emailed++;
    return report;
  }
}
