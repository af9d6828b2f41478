import { Module } from '@nestjs/common';
import { AccountsModule } from '../accounts/accounts.module';
import { LinksModule } from '../links/links.module';
import { MessagingModule } from '../messaging/messaging.module';
import { RedisModule } from '../common/redis/redis.module';
import { UnsubscribesModule } from '../unsubscribes/unsubscribes.module';
import { WebhooksModule } from '../webhooks/webhooks.module';
import { InboundController } from './inbound.controller';
import { InboundRepository } from './inbound.repository';
import { InboundService } from './inbound.service';
import { OptOutPageController } from './opt-out-page.controller';
import { OptOutPageService } from './opt-out-page.service';
import { OptOutService } from './opt-out.service';

@Module({
  imports: [AccountsModule, UnsubscribesModule, MessagingModule, WebhooksModule, LinksModule, RedisModule],
  controllers: [InboundController, OptOutPageController],
  providers: [InboundRepository, InboundService, OptOutService, OptOutPageService],
  exports: [InboundService],
})
export class InboundModule {}
