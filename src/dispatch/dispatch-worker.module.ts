import { Global, Module } from '@nestjs/common';
import { InboundModule } from '../inbound/inbound.module';
import { WebhooksModule } from '../webhooks/webhooks.module';
import { WebhookWorkerModule } from '../webhooks/webhook-worker.module';
import { CarrierEventsService } from './carrier-events.service';
import { CarriersService } from './carriers.service';
import { DeliveryMetrics } from './delivery-metrics';
import { DispatchProcessor } from './dispatch.processor';
import { DispatcherService } from './dispatcher.service';
import { DispatchRepository } from './dispatch.repository';
import { QueueModule } from './queue.module';
import { ReceiptIntakeService } from './receipt-intake.service';
import { SweeperService } from './sweeper.service';

/**
 * The delivery workers (APP_ROLE all or worker): dispatch jobs, carriers, receipts, the sweeper and
 * webhook delivery.
 * Global so /health can report the carrier's state where the worker runs in the same process.
 */
@Global()
@Module({
  imports: [QueueModule, InboundModule, WebhooksModule, WebhookWorkerModule],
  providers: [DispatchRepository, CarriersService, DeliveryMetrics, DispatcherService, ReceiptIntakeService, SweeperService, DispatchProcessor, CarrierEventsService],
  exports: [CarriersService, DispatcherService, SweeperService],
})
export class DispatchWorkerModule {}
