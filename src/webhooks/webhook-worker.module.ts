import { Injectable, Module, OnModuleInit } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { QueuesModule } from '../queues/queues.module';
import { WebhookQueue } from '../queues/webhook-queue';
import { WebhookDeliveryService } from './webhook-delivery.service';
import { WebhookRetentionRepository } from './webhook-retention.repository';
import { WebhookRetentionService } from './webhook-retention.service';
import { WebhookDeliveryRepository } from './webhook-delivery.repository';

/** Consumer of the webhook queue (the sweep that delivers anything due whose wake-up was lost is periodic work of the worker role). */
@Injectable()
class WebhookProcessor implements OnModuleInit {
  constructor(
    private readonly queue: WebhookQueue,
    private readonly delivery: WebhookDeliveryService,
    private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    this.queue.consume(this.config.webhookConcurrency, () => this.delivery.deliverDue());
  }
}

@Module({
  imports: [QueuesModule],
  providers: [WebhookDeliveryRepository, WebhookDeliveryService, WebhookProcessor, WebhookRetentionRepository, WebhookRetentionService],
  exports: [WebhookDeliveryService, WebhookRetentionService],
})
export class WebhookWorkerModule {}
