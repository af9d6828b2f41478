import { Foundation1763700000000 } from './database/migrations/1763700000000-Foundation';
import { AddressBook1763700100000 } from './database/migrations/1763700100000-AddressBook';
import { Messaging1763700200000 } from './database/migrations/1763700200000-Messaging';
import { Delivery1763700300000 } from './database/migrations/1763700300000-Delivery';
import { Webhooks1763700400000 } from './database/migrations/1763700400000-Webhooks';
import { RequestTracing1763700510000 } from './database/migrations/1763700510000-RequestTracing';
import { Users1763701100000 } from './database/migrations/1763701100000-Users';
import { SenderIdentity1763701200000 } from './database/migrations/1763701200000-SenderIdentity';
import { RefundLines1763701500000 } from './database/migrations/1763701500000-RefundLines';
import { DispatcherLeases1763701510000 } from './database/migrations/1763701510000-DispatcherLeases';
import { Links1763701800000 } from './database/migrations/1763701800000-Links';
import { Purchases1763702000000 } from './database/migrations/1763702000000-Purchases';
import { DispatchWrites1763702200000 } from './database/migrations/1763702200000-DispatchWrites';
import { MessageSendAccount1763702400000 } from './database/migrations/1763702400000-MessageSendAccount';
import { ClaimWatermark1763702600000 } from './database/migrations/1763702600000-ClaimWatermark';
import { AccountTimeZonePermissions1763702800000 } from './database/migrations/1763702800000-AccountTimeZonePermissions';
import { ContactSearch1763703000000 } from './database/migrations/1763703000000-ContactSearch';
import { WebhookLeaseHolder1763703200000 } from './database/migrations/1763703200000-WebhookLeaseHolder';
import { KeywordRules1763703400000 } from './database/migrations/1763703400000-KeywordRules';
import { ContactImports1763703600000 } from './database/migrations/1763703600000-ContactImports';
import { SignUps1763703800000 } from './database/migrations/1763703800000-SignUps';
import { PagePurchases1763704000000 } from './database/migrations/1763704000000-PagePurchases';
import { DashboardSends1763704200000 } from './database/migrations/1763704200000-DashboardSends';
import { SignInPairs1763704300000 } from './database/migrations/1763704300000-SignInPairs';
import { InboxReads1763704400000 } from './database/migrations/1763704400000-InboxReads';
import { QuietHours1763704500000 } from './database/migrations/1763704500000-QuietHours';
import { AutoRecharge1763704600000 } from './database/migrations/1763704600000-AutoRecharge';
import { TwoFactor1763704800000 } from './database/migrations/1763704800000-TwoFactor';
import { ConsentRecords1763704900000 } from './database/migrations/1763704900000-ConsentRecords';
import { LiveRequests1763705100000 } from './database/migrations/1763705100000-LiveRequests';
import { SendBlockedCount1763705200000 } from './database/migrations/1763705200000-SendBlockedCount';
import { LinkClickBuckets1763705210000 } from './database/migrations/1763705210000-LinkClickBuckets';
import { ContactImportAttempts1763705300000 } from './database/migrations/1763705300000-ContactImportAttempts';
import { ApiKeyScopes1763705400000 } from './database/migrations/1763705400000-ApiKeyScopes';
import { AccountGuards1763705500000 } from './database/migrations/1763705500000-AccountGuards';
import { FailedWebhookAttempts1763705700000 } from './database/migrations/1763705700000-FailedWebhookAttempts';
import { Carriers1763705800000 } from './database/migrations/1763705800000-Carriers';
import { CarrierErrors1763705900000 } from './database/migrations/1763705900000-CarrierErrors';
import { PartitionInboundAndClicks1763706400000 } from './database/migrations/1763706400000-PartitionInboundAndClicks';
import { PartitionMessages1763706700000 } from './database/migrations/1763706700000-PartitionMessages';
import { PartitionWebhooks1763707200000 } from './database/migrations/1763707200000-PartitionWebhooks';
import { MessageCounts1763707700000 } from './database/migrations/1763707700000-MessageCounts';
import { WebhookEventsFillfactor1763708200000 } from './database/migrations/1763708200000-WebhookEventsFillfactor';
import { MessageKeysPerStatement1763708700000 } from './database/migrations/1763708700000-MessageKeysPerStatement';
import { WebhookKeysPerStatement1763708800000 } from './database/migrations/1763708800000-WebhookKeysPerStatement';
import { PurchaseActors1763708900000 } from './database/migrations/1763708900000-PurchaseActors';
import { ReceiptsPerCarrier1763706000000 } from './database/migrations/1763706000000-ReceiptsPerCarrier';

/** In order of application. A new migration is added here as well as generated. */
export const MIGRATIONS = [
  Foundation1763700000000,
  AddressBook1763700100000,
  Messaging1763700200000,
  Delivery1763700300000,
  Webhooks1763700400000,
  RequestTracing1763700510000,
  Users1763701100000,
  SenderIdentity1763701200000,
  RefundLines1763701500000,
  DispatcherLeases1763701510000,
  Links1763701800000,
  Purchases1763702000000,
  DispatchWrites1763702200000,
  MessageSendAccount1763702400000,
  ClaimWatermark1763702600000,
  AccountTimeZonePermissions1763702800000,
  ContactSearch1763703000000,
  WebhookLeaseHolder1763703200000,
  KeywordRules1763703400000,
  ContactImports1763703600000,
  SignUps1763703800000,
  PagePurchases1763704000000,
  DashboardSends1763704200000,
  SignInPairs1763704300000,
  InboxReads1763704400000,
  QuietHours1763704500000,
  AutoRecharge1763704600000,
  TwoFactor1763704800000,
  ConsentRecords1763704900000,
  LiveRequests1763705100000,
  SendBlockedCount1763705200000,
  LinkClickBuckets1763705210000,
  ContactImportAttempts1763705300000,
  ApiKeyScopes1763705400000,
  AccountGuards1763705500000,
  FailedWebhookAttempts1763705700000,
  Carriers1763705800000,
  CarrierErrors1763705900000,
  ReceiptsPerCarrier1763706000000,
  PartitionInboundAndClicks1763706400000,
  PartitionMessages1763706700000,
  PartitionWebhooks1763707200000,
  MessageCounts1763707700000,
  WebhookEventsFillfactor1763708200000,
  MessageKeysPerStatement1763708700000,
  WebhookKeysPerStatement1763708800000,
  PurchaseActors1763708900000,
];
