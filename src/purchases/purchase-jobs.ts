import { Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { InvoiceMailer } from './invoice-mailer.service';
import { PurchaseReconciler } from './purchase-reconciler.service';
import { RenewalsService } from './renewals.service';

/**
 * Runs the reconciler and the renewal job every PURCHASE_JOBS_INTERVAL_MS in each process that serves
 * the API. Both are safe to run in many processes at once (conditional steps, row locks, idempotency keys).
 */
@Injectable()
export class PurchaseJobs implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(PurchaseJobs.name);
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;

  constructor(
    private readonly reconciler: PurchaseReconciler,
    private readonly renewals: RenewalsService,
    private readonly invoices: InvoiceMailer,
    private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    if (this.config.purchaseJobsIntervalMs <= 0) return;
    this.timer = setInterval(() => {
      if (this.running) return;
      this.running = this.tick().finally(() => (this.running = undefined));
    }, this.config.purchaseJobsIntervalMs);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
    await this.invoices.drain();
  }

  private async tick(): Promise<void> {
    try {
      await this.reconciler.run();
      await this.renewals.runDue();
    } catch (err) {
      this.logger.warn({ msg: 'purchase jobs failed', err: (err as Error).message });
    }
  }
}
