import { InjectQueue } from '@nestjs/bull';
import { Injectable, Logger, Module, OnApplicationBootstrap, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import type { Queue } from 'bull';
import { AppConfig } from '../config/app-config';
import { QueueModule } from '../dispatch/queue.module';
import { WebhookDeliveryService } from './webhook-delivery.service';
import { JOB_DELIVER_DUE, WEBHOOK_QUEUE } from './webhook-queue';
import { WebhooksRepository } from './webhooks.repository';

/** Consumer of the webhook queue, plus a sweep that delivers anything due whose wake-up was lost. */
@Injectable()
class WebhookProcessor implements OnModuleInit, OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('WebhookProcessor');
  private timer?: NodeJS.Timeout;

  constructor(
    @InjectQueue(WEBHOOK_QUEUE) private readonly queue: Queue,
    private readonly delivery: WebhookDeliveryService,
    private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    this.queue.process(JOB_DELIVER_DUE, 8, () => this.delivery.deliverDue()).catch((err: Error) => this.logger.error({ msg: 'webhook processor stopped', err: err.message }));
  }

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.delivery.deliverDue().catch((err: Error) => this.logger.warn({ msg: 'webhook sweep failed', err: err.message })), this.config.sweepIntervalMs);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
  }
}

@Module({
  imports: [QueueModule],
  providers: [WebhooksRepository, WebhookDeliveryService, WebhookProcessor],
})
export class WebhookWorkerModule {}
