import { Injectable, Logger, Module, OnApplicationBootstrap, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { QueuesModule } from '../queues/queues.module';
import { WebhookQueue } from '../queues/webhook-queue';
import { WebhookDeliveryService } from './webhook-delivery.service';
import { WebhooksRepository } from './webhooks.repository';

/** Consumer of the webhook queue, plus a sweep that delivers anything due whose wake-up was lost. */
@Injectable()
class WebhookProcessor implements OnModuleInit, OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('WebhookProcessor');
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly queue: WebhookQueue,
    private readonly delivery: WebhookDeliveryService,
    private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    this.queue.consume(this.config.webhookConcurrency, () => this.delivery.deliverDue());
  }

  onApplicationBootstrap(): void {
    this.timer = setInterval(
      () => void this.delivery.deliverDue().catch((err: Error) => this.logger.warn({ msg: 'webhook sweep failed', err: err.message })),
      this.config.sweepIntervalMs,
    );
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
  }
}

@Module({
  imports: [QueuesModule],
  providers: [WebhooksRepository, WebhookDeliveryService, WebhookProcessor],
})
export class WebhookWorkerModule {}
