import { Module } from '@nestjs/common';
import { CarrierEventsRouter } from './carrier-events.router';
import { DispatchWorkerModule } from './dispatch/dispatch-worker.module';
import { InboundModule } from './inbound/inbound.module';
import { WebhookWorkerModule } from './webhooks/webhook-worker.module';

/**
 * Everything a delivery worker runs (APP_ROLE all or worker): dispatch, carriers, receipts, the
 * sweeper, webhook delivery, and the routing of what the carrier receives. Exports the dispatch worker,
 * which provides CARRIER_STATUS for /health.
 */
@Module({
  imports: [DispatchWorkerModule, InboundModule, WebhookWorkerModule],
  providers: [CarrierEventsRouter],
  exports: [DispatchWorkerModule],
})
export class DeliveryWorkerModule {}
