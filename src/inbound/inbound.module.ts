import { Module } from '@nestjs/common';
import { AccountsModule } from '../accounts/accounts.module';
import { ConsentModule } from '../consent/consent.module';
import { KeywordsModule } from '../keywords/keywords.module';
import { LinksModule } from '../links/links.module';
import { ListsModule } from '../lists/lists.module';
import { MessagingModule } from '../messaging/messaging.module';
import { RedisModule } from '../common/redis/redis.module';
import { UnsubscribesModule } from '../unsubscribes/unsubscribes.module';
import { WebhooksModule } from '../webhooks/webhooks.module';
import { InboundController } from './inbound.controller';
import { InboundRepository } from './inbound.repository';
import { InboundService } from './inbound.service';
import { InboxRepository } from './inbox.repository';
import { InboxService } from './inbox.service';
import { SendersModule } from '../senders/senders.module';
import { KeywordActionsService } from './keyword-actions.service';
import { OptOutPageController } from './opt-out-page.controller';
import { OptOutPageService } from './opt-out-page.service';
import { OptOutService } from './opt-out.service';

@Module({
  imports: [AccountsModule, UnsubscribesModule, MessagingModule, WebhooksModule, LinksModule, RedisModule, KeywordsModule, ListsModule, SendersModule, ConsentModule],
  controllers: [InboundController, OptOutPageController],
  providers: [InboundRepository, InboundService, OptOutService, OptOutPageService, KeywordActionsService, InboxRepository, InboxService],
  exports: [InboundService, InboxService, OptOutService],
})
export class InboundModule {}
