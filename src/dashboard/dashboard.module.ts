import { Module } from '@nestjs/common';
import { AccountsModule } from '../accounts/accounts.module';
import { MailModule } from '../mail/mail.module';
import { MessagingModule } from '../messaging/messaging.module';
import { UsersModule } from '../users/users.module';
import { UnsubscribesModule } from '../unsubscribes/unsubscribes.module';
import { WebhooksModule } from '../webhooks/webhooks.module';
import { NumbersModule } from '../numbers/numbers.module';
import { SenderIdentityModule } from '../sender-identity/sender-identity.module';
import { PaymentsModule } from '../payments/payments.module';
import { PurchasesModule } from '../purchases/purchases.module';
import { ContactsModule } from '../contacts/contacts.module';
import { ListsModule } from '../lists/lists.module';
import { SendersModule } from '../senders/senders.module';
import { ContactImportsModule } from '../contact-imports/contact-imports.module';
import { BillingPageController } from './billing/billing-page.controller';
import { BillingPageService } from './billing/billing-page.service';
import { BuyCreditsPageService } from './billing/buy-credits-page.service';
import { BalanceSettingsPageService } from './billing/balance-settings-page.service';
import { StatementPageService } from './billing/statement-page.service';
import { RechargeModule } from '../recharge/recharge.module';
import { BillingModule } from '../billing/billing.module';
import { SenderConfirmPageController } from './senders/sender-confirm-page.controller';
import { SendersPageController } from './senders/senders-page.controller';
import { SendersPageService } from './senders/senders-page.service';
import { AuditPageController, AuditPageService } from './audit/audit-page.controller';
import { AuthPagesController } from './auth/auth-pages.controller';
import { AuthPagesService } from './auth/auth-pages.service';
import { SignUpPagesController } from './auth/sign-up-pages.controller';
import { SignUpPagesService } from './auth/sign-up-pages.service';
import { SignUpModule } from '../signup/signup.module';
import { MessagesPageController } from './messages/messages-page.controller';
import { MessagesPageService } from './messages/messages-page.service';
import { OverviewController } from './overview/overview.controller';
import { OverviewPageService } from './overview/overview-page.service';
import { ProfileController, ProfilePageService } from './profile/profile.controller';
import { TwoFactorPageController, TwoFactorPageService } from './profile/two-factor-page.controller';
import { ApiKeyActionsService } from './settings-api/api-key-actions.service';
import { ApiKeysPageController } from './settings-api/api-keys-page.controller';
import { ApiKeysPageService } from './settings-api/api-keys-page.service';
import { UsersPageController } from './users/users-page.controller';
import { UsersPageService } from './users/users-page.service';
import { WebhooksPageController } from './settings-webhooks/webhooks-page.controller';
import { WebhooksPageService } from './settings-webhooks/webhooks-page.service';
import { ContactsPageController } from './contacts/contacts-page.controller';
import { ContactsPageService } from './contacts/contacts-page.service';
import { ListsPageController } from './contacts/lists-page.controller';
import { ImportsPageController } from './contacts/imports-page.controller';
import { InboxPageController } from './inbox/inbox-page.controller';
import { OptOutsPageController } from './contacts/opt-outs-page.controller';
import { OptOutsPageService } from './contacts/opt-outs-page.service';
import { InboxPageService } from './inbox/inbox-page.service';
import { InboundModule } from '../inbound/inbound.module';
import { ImportsPageService } from './contacts/imports-page.service';
import { KeywordsPageController } from './keywords/keywords-page.controller';
import { KeywordsPageService } from './keywords/keywords-page.service';
import { KeywordsModule } from '../keywords/keywords.module';
import { ListsPageService } from './contacts/lists-page.service';
import { SendingBrakeModule } from '../sending-brake/sending-brake.module';
import { SecurityPageController } from './settings-security/security-page.controller';
import { SecurityPageService } from './settings-security/security-page.service';
import { TimeZonePageController } from './settings-time-zone/time-zone-page.controller';
import { TimeZonePageService } from './settings-time-zone/time-zone-page.service';
import { SendPageController } from './send/send-page.controller';
import { SendPageService } from './send/send-page.service';
import { ComposePreviewService } from './send/compose-preview.service';
import { CampaignsPageController } from './campaigns/campaigns-page.controller';
import { CampaignsPageService } from './campaigns/campaigns-page.service';
import { ConsentModule } from '../consent/consent.module';
import { QuietHoursModule } from '../quiet-hours/quiet-hours.module';
import { QuietHoursPageController } from './settings-quiet-hours/quiet-hours-page.controller';
import { QuietHoursPageService } from './settings-quiet-hours/quiet-hours-page.service';
import { ReportsPageController } from './reports/reports-page.controller';
import { ReportsPageService } from './reports/reports-page.service';
import { GoLivePageController } from './go-live/go-live-page.controller';
import { GoLivePageService } from './go-live/go-live-page.service';
import { LiveRequestsModule } from '../live-requests/live-requests.module';

/**
 * The self-service dashboard: one controller per page group (navigation.ts lists the groups and who
 * may open each). A new group is a folder here with its controller and page service, added below.
 */
@Module({
  imports: [
    UsersModule,
    UnsubscribesModule,
    AccountsModule,
    MessagingModule,
    SendingBrakeModule,
    WebhooksModule,
    MailModule,
    SenderIdentityModule,
    NumbersModule,
    PaymentsModule,
    PurchasesModule,
    ContactsModule,
    ListsModule,
    SignUpModule,
    SendersModule,
    ContactImportsModule,
    KeywordsModule,
    InboundModule,
    RechargeModule,
    BillingModule,
    ConsentModule,
    LiveRequestsModule,
    QuietHoursModule,
  ],
  controllers: [
    AuthPagesController,
    SignUpPagesController,
    OverviewController,
    MessagesPageController,
    ApiKeysPageController,
    WebhooksPageController,
    SendersPageController,
    SenderConfirmPageController,
    BillingPageController,
    UsersPageController,
    AuditPageController,
    ProfileController,
    TwoFactorPageController,
    ContactsPageController,
    ListsPageController,
    ImportsPageController,
    InboxPageController,
    OptOutsPageController,
    TimeZonePageController,
    QuietHoursPageController,
    SecurityPageController,
    SendPageController,
    CampaignsPageController,
    KeywordsPageController,
    ReportsPageController,
    GoLivePageController,
  ],
  providers: [
    GoLivePageService,
    AuthPagesService,
    SignUpPagesService,
    OverviewPageService,
    MessagesPageService,
    ApiKeyActionsService,
    ApiKeysPageService,
    WebhooksPageService,
    SendersPageService,
    BillingPageService,
    BuyCreditsPageService,
    BalanceSettingsPageService,
    StatementPageService,
    UsersPageService,
    AuditPageService,
    ProfilePageService,
    TwoFactorPageService,
    ContactsPageService,
    ListsPageService,
    ImportsPageService,
    InboxPageService,
    OptOutsPageService,
    TimeZonePageService,
    QuietHoursPageService,
    SecurityPageService,
    SendPageService,
    ComposePreviewService,
    CampaignsPageService,
    KeywordsPageService,
    ReportsPageService,
  ],
})
export class DashboardModule {}
