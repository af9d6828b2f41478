import { Module } from '@nestjs/common';
import { AppConfig } from './config/app-config';
import { ContactImportsModule } from './contact-imports/contact-imports.module';
import { ContactImportsService } from './contact-imports/contact-imports.service';
import { DeliveryRecordsService } from './delivery/worker/delivery-records.service';
import { DispatchWorkerModule } from './delivery/worker/dispatch-worker.module';
import { SweeperService } from './delivery/worker/sweeper.service';
import { ReceiptWaitsService } from './delivery/worker/receipt-waits.service';
import { IdempotencyModule } from './idempotency/idempotency.module';
import { IdempotencyService } from './idempotency/idempotency.service';
import { LinkClicksService } from './links/link-clicks.service';
import { LinkRetentionService } from './links/link-retention.service';
import { LinksModule } from './links/links.module';
import { PartitionMaintenanceService } from './partitions/partition-maintenance.service';
import { PartitionsModule } from './partitions/partitions.module';
import { PeriodicRunner } from './periodic/periodic-runner';
import { CrossingHandler } from './recharge/crossing-handler.service';
import { RechargeModule } from './recharge/recharge.module';
import { PERIODIC_WORK, type PeriodicWork } from './periodic/periodic-work';
import { PurchaseReconciler } from './purchases/purchase-reconciler.service';
import { PurchasesModule } from './purchases/purchases.module';
import { RenewalsService } from './purchases/renewals.service';
import { WebhookDeliveryService } from './webhooks/webhook-delivery.service';
import { WebhookRetentionService } from './webhooks/webhook-retention.service';
import { WebhookWorkerModule } from './webhooks/webhook-worker.module';

/**
 * The worker role's periodic work (APP_ROLE worker, and all), declared here and nowhere else: an API-only
 * process and the operator CLI run none. Every item is safe to run in many workers at once (row locks,
 * conditional updates, idempotent steps). Add new work as one entry.
 */
@Module({
  imports: [DispatchWorkerModule, WebhookWorkerModule, PurchasesModule, LinksModule, IdempotencyModule, ContactImportsModule, RechargeModule, PartitionsModule],
  providers: [
    {
      provide: PERIODIC_WORK,
      inject: [
        AppConfig,
        SweeperService,
        ReceiptWaitsService,
        WebhookDeliveryService,
        PurchaseReconciler,
        RenewalsService,
        LinkClicksService,
        IdempotencyService,
        ContactImportsService,
        CrossingHandler,
        LinkRetentionService,
        WebhookRetentionService,
        PartitionMaintenanceService,
        DeliveryRecordsService,
      ],
      useFactory: (
        config: AppConfig,
        sweeper: SweeperService,
        receiptWaits: ReceiptWaitsService,
        webhooks: WebhookDeliveryService,
        reconciler: PurchaseReconciler,
        renewals: RenewalsService,
        clicks: LinkClicksService,
        idempotency: IdempotencyService,
        contactImports: ContactImportsService,
        crossings: CrossingHandler,
        linkRetention: LinkRetentionService,
        webhookRetention: WebhookRetentionService,
        partitions: PartitionMaintenanceService,
        records: DeliveryRecordsService,
      ): PeriodicWork[] => [
        // Re-enqueues orphaned sends, takes back dead dispatchers' claims, applies late and simulated receipts.
        { name: 'dispatch-sweep', everyMs: config.sweepIntervalMs, run: () => sweeper.sweep() },
        // Stops waiting for receipts that never came: parts RECEIPT_WAIT_MS after submission read unconfirmed.
        { name: 'receipt-wait-close', everyMs: config.receiptWaitCloseIntervalMs, run: () => receiptWaits.closeDue() },
        // Delivers webhook events that are due but whose wake-up job was lost.
        { name: 'webhook-sweep', everyMs: config.sweepIntervalMs, run: () => webhooks.sweep() },
        // Settles purchases a crash or a lost provider answer left unsettled.
        { name: 'purchase-reconciliation', everyMs: config.purchaseJobsIntervalMs, run: () => reconciler.run() },
        // Charges due renewals of bought numbers; releases those past their grace period.
        { name: 'number-renewals', everyMs: config.purchaseJobsIntervalMs, run: () => renewals.runDue() },
        // Folds appended link clicks into their links' counters.
        { name: 'click-folding', everyMs: config.clickFoldIntervalMs, run: () => clicks.foldAll() },
        // Deletes expired Idempotency-Key records.
        { name: 'idempotency-purge', everyMs: config.idempotencyPurgeIntervalMs, run: () => idempotency.purgeExpired() },
        // Re-enqueues contact imports whose job was lost (Redis flushed, enqueue failed); one still queued is not added twice.
        { name: 'contact-import-sweep', everyMs: config.sweepIntervalMs, run: () => contactImports.requeueUnfinished() },
        // Deletes finished imports past their retention and uploads never started (with any file they still hold).
        {
          name: 'contact-import-purge',
          everyMs: config.contactImportPurgeIntervalMs,
          run: () => contactImports.purgeExpired(config.contactImportRetentionDays, config.contactImportDraftHours),
        },
        // Handles balance crossings (auto-recharge, the low-balance warning) whose job was lost.
        { name: 'balance-crossing-sweep', everyMs: config.sweepIntervalMs, run: () => crossings.sweep() },
        // Deletes short links past SHORT_LINK_RETENTION_DAYS, sweeping the table's pages over successive runs.
        { name: 'short-link-purge', everyMs: config.retentionPurgeIntervalMs, run: () => linkRetention.purgeExpired() },
        // Deletes finished webhook events and delivery attempts past WEBHOOK_RETENTION_DAYS, oldest first.
        { name: 'webhook-purge', everyMs: config.retentionPurgeIntervalMs, run: () => webhookRetention.purgeExpired() },
        // Deletes stored early receipts an hour after they were applied, or a week on if their part never came.
        { name: 'early-receipt-purge', everyMs: config.retentionPurgeIntervalMs, run: () => records.purgeEarlyReceipts() },
        // Makes the time partitions ahead and detaches and drops those past their retention (PARTITIONED_TABLES); one worker at a time.
        { name: 'partition-maintenance', everyMs: config.partitionMaintenanceIntervalMs, run: () => partitions.run() },
      ],
    },
    PeriodicRunner,
  ],
  exports: [PeriodicRunner],
})
export class PeriodicWorkModule {}
