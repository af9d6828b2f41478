import { Module } from '@nestjs/common';
import { QueuesModule } from '../queues/queues.module';
import { WebhookEventsService } from './webhook-events.service';
import { WebhookSettingsService } from './webhook-settings.service';
import { WebhookToolsService } from './webhook-tools.service';
import { WebhooksController } from './webhooks.controller';
import { WebhooksRepository } from './webhooks.repository';

@Module({
  imports: [QueuesModule],
  controllers: [WebhooksController],
  providers: [WebhooksRepository, WebhookSettingsService, WebhookEventsService, WebhookToolsService],
  exports: [WebhookEventsService, WebhookSettingsService, WebhookToolsService],
})
export class WebhooksModule {}
