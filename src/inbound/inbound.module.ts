import { Module } from '@nestjs/common';
import { AccountsModule } from '../accounts/accounts.module';
import { MessagingModule } from '../messaging/messaging.module';
import { UnsubscribesModule } from '../unsubscribes/unsubscribes.module';
import { WebhooksModule } from '../webhooks/webhooks.module';
import { InboundController } from './inbound.controller';
import { InboundRepository } from './inbound.repository';
import { InboundService } from './inbound.service';

@Module({
  imports: [AccountsModule, UnsubscribesModule, MessagingModule, WebhooksModule],
  controllers: [InboundController],
  providers: [InboundRepository, InboundService],
  exports: [InboundService],
})
export class InboundModule {}
