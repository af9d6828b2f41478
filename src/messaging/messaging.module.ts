import { SendingBrakeModule } from '../sending-brake/sending-brake.module';
import { ReportReadsRepository } from './report-reads.repository';
import { ReportReadsService } from './report-reads.service';
import { MessageExportRepository } from './message-export.repository';
import { MessageExportService } from './message-export.service';
import { CampaignReadsRepository } from './campaign-reads.repository';
import { CampaignReadsService } from './campaign-reads.service';
import { Module } from '@nestjs/common';
import { AccountsModule } from '../accounts/accounts.module';
import { DeliveryStateModule } from '../delivery/state/delivery-state.module';
import { BillingModule } from '../billing/billing.module';
import { ContactsModule } from '../contacts/contacts.module';
import { QueuesModule } from '../queues/queues.module';
import { IdempotencyModule } from '../idempotency/idempotency.module';
import { WebhooksModule } from '../webhooks/webhooks.module';
import { LinksModule } from '../links/links.module';
import { ListsModule } from '../lists/lists.module';
import { SendersModule } from '../senders/senders.module';
import { UnsubscribesModule } from '../unsubscribes/unsubscribes.module';
import { QuietHoursModule } from '../quiet-hours/quiet-hours.module';
import { AutoRepliesRepository } from './auto-replies.repository';
import { AutoReplyService } from './auto-reply.service';
import { CancelMessagesService } from './cancel-messages.service';
import { ListSendController } from './list-send.controller';
import { ListSendService } from './list-send.service';
import { MessageLookupService } from './message-lookup.service';
import { MessageActivityRepository } from './message-activity.repository';
import { MessageActivityService } from './message-activity.service';
import { MessagesController } from './messages.controller';
import { MessagesRepository } from './messages.repository';
import { SendBatchService } from './send-batch.service';
import { SendsRepository } from './sends.repository';
import { SimpleSendController } from './simple-send.controller';
import { SendWriter } from './send-writer.service';
import { SystemMessagesService } from './system-messages.service';

@Module({
  imports: [
    DeliveryStateModule,
    AccountsModule,
    SendersModule,
    ContactsModule,
    ListsModule,
    LinksModule,
    UnsubscribesModule,
    BillingModule,
    IdempotencyModule,
    QueuesModule,
    WebhooksModule,
    QuietHoursModule,
    SendingBrakeModule,
  ],
  controllers: [MessagesController, ListSendController, SimpleSendController],
  providers: [
    CampaignReadsRepository,
    CampaignReadsService,
    MessageExportRepository,
    MessageExportService,
    ReportReadsRepository,
    ReportReadsService,
    MessagesRepository,
    SendsRepository,
    SendWriter,
    SendBatchService,
    ListSendService,
    CancelMessagesService,
    MessageLookupService,
    MessageActivityRepository,
    MessageActivityService,
    SystemMessagesService,
    AutoRepliesRepository,
    AutoReplyService,
  ],
  exports: [
    AutoReplyService,
    CancelMessagesService,
    MessageLookupService,
    MessageActivityService,
    SystemMessagesService,
    SendBatchService,
    ListSendService,
    CampaignReadsService,
    MessageExportService,
    ReportReadsService,
  ],
})
export class MessagingModule {}
