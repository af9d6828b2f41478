import { Module } from '@nestjs/common';
import { CarrierEventsRouter } from './carrier-events.router';
import { ContactImportWorkerModule } from './contact-imports/contact-import-worker.module';
import { DispatchWorkerModule } from './delivery/worker/dispatch-worker.module';
import { InboundModule } from './inbound/inbound.module';
import { PeriodicWorkModule } from './periodic-work.module';
import { WebhookWorkerModule } from './webhooks/webhook-worker.module';
import { RechargeWorkerModule } from './recharge/recharge-worker.module';

/**
 * Everything a delivery worker runs (APP_ROLE all or worker): dispatch, carriers, receipts, the
 * sweeper, webhook delivery, contact imports, the routing of what the carrier receives, and the role's periodic work. Exports the dispatch worker,
 * which provides CARRIER_STATUS for /health.
 */
@Module({
  imports: [DispatchWorkerModule, InboundModule, WebhookWorkerModule, ContactImportWorkerModule, RechargeWorkerModule, PeriodicWorkModule],
  providers: [CarrierEventsRouter],
  exports: [DispatchWorkerModule, PeriodicWorkModule],
})
export class DeliveryWorkerModule {}
