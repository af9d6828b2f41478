import { Module } from '@nestjs/common';
import { QueueModule } from '../dispatch/queue.module';
import { WebhookEventsService } from './webhook-events.service';
import { WebhookSettingsService } from './webhook-settings.service';
import { WebhooksController } from './webhooks.controller';
import { WebhooksRepository } from './webhooks.repository';

@Module({
  imports: [QueueModule],
  controllers: [WebhooksController],
  providers: [WebhooksRepository, WebhookSettingsService, WebhookEventsService],
  exports: [WebhookEventsService],
})
export class WebhooksModule {}
