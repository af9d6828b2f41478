import { BullModule } from '@nestjs/bull';
import { Module } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { DISPATCH_QUEUE, DispatchQueue } from './dispatch-queue';
import { DispatchStatusService } from './dispatch-status.service';
import { DispatchRepository } from './dispatch.repository';
import { WEBHOOK_QUEUE, WebhookQueue } from '../webhooks/webhook-queue';

/** The queues (dispatch, webhooks), their producers and status, for the API (enqueue after commit, health) and the workers. */
@Module({
  imports: [
    BullModule.forRootAsync({
      inject: [AppConfig],
      useFactory: (config: AppConfig) => ({ url: config.redisUrl, prefix: `${config.redisPrefix}:bull` }),
    }),
    BullModule.registerQueue({ name: DISPATCH_QUEUE }, { name: WEBHOOK_QUEUE }),
  ],
  providers: [DispatchQueue, DispatchRepository, DispatchStatusService, WebhookQueue],
  exports: [DispatchQueue, DispatchStatusService, WebhookQueue, BullModule],
})
export class QueueModule {}
