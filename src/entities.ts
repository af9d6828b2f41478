import { Account } from './accounts/account.entity';
import { SignUp } from './signup/sign-up.entity';
import { LiveRequest } from './live-requests/live-request.entity';
import { AutoRechargeSetting } from './recharge/auto-recharge.entity';
import { BalanceCrossing } from './billing/balance-crossing.entity';
import { ApiKey } from './accounts/api-key.entity';
import { ApiKeyDailyMessages } from './accounts/api-key-daily-messages.entity';
import { CreditLedgerEntry } from './billing/credit-ledger-entry.entity';
import { CreditRefundLine } from './billing/credit-refund-line.entity';
import { Sender } from './senders/sender.entity';
import { Contact } from './contacts/contact.entity';
import { ContactList } from './lists/contact-list.entity';
import { ListMember } from './lists/list-member.entity';
import { Unsubscribe } from './unsubscribes/unsubscribe.entity';
import { Message } from './messaging/message.entity';
import { MessageCount } from './messaging/message-count.entity';
import { Send } from './messaging/send.entity';
import { DeliveryReceiptRecord } from './delivery/state/delivery-receipt.entity';
import { MessagePart } from './delivery/state/message-part.entity';
import { ReceiptWaitWatermark } from './delivery/state/receipt-wait-watermark.entity';
import { DispatchBatch } from './delivery/state/dispatch-batch.entity';
import { DispatcherLease } from './delivery/state/dispatcher-lease.entity';
import { IdempotencyKey } from './idempotency/idempotency-key.entity';
import { InboundMessage } from './inbound/inbound-message.entity';
import { KeywordRule } from './keywords/keyword-rule.entity';
import { QuietHoursSetting } from './quiet-hours/quiet-hours.entity';
import { ConsentRecord } from './consent/consent-record.entity';
import { WebhookAttempt } from './webhooks/webhook-attempt.entity';
import { WebhookEvent } from './webhooks/webhook-event.entity';
import { User } from './users/user.entity';
import { UserSession } from './users/user-session.entity';
import { UserToken } from './users/user-token.entity';
import { SignInFailure } from './users/sign-in-failure.entity';
import { AuditEntry } from './users/audit-entry.entity';
import { SenderVerification } from './sender-identity/own-mobile/sender-verification.entity';
import { SenderRegistration } from './sender-identity/registrations/sender-registration.entity';
import { DedicatedNumber } from './numbers/dedicated-number.entity';
import { FreeNumberClaim } from './numbers/free-number-claim.entity';
import { ShortLink } from './links/short-link.entity';
import { LinkClickEvent } from './links/link-click-event.entity';
import { LinkClickBucket } from './links/link-click-bucket.entity';
import { PaymentCustomer } from './payments/payment-customer.entity';
import { PaymentCard } from './payments/payment-card.entity';
import { SimulatedPayment } from './payments/simulated-payment.entity';
import { Purchase } from './purchases/purchase.entity';
import { NumberSubscription } from './purchases/number-subscription.entity';
import { ContactImport } from './contact-imports/contact-import.entity';
import { InboxRead } from './inbound/inbox-read.entity';
import { SendingBrake } from './sending-brake/sending-brake.entity';
import { CarrierRow } from './carriers/carrier.entity';
import { CarrierSettingsVersion, RouteMemberRow, RouteRow } from './carriers/route.entity';

/** Explicit entity list: no globbing, so the build and the tests see exactly the same schema. */
export const ENTITIES = [
  Account,
  ApiKey,
  ApiKeyDailyMessages,
  Sender,
  CreditLedgerEntry,
  Contact,
  ContactList,
  ListMember,
  Unsubscribe,
  Send,
  Message,
  MessageCount,
  IdempotencyKey,
  MessagePart,
  DeliveryReceiptRecord,
  ReceiptWaitWatermark,
  InboundMessage,
  KeywordRule,
  QuietHoursSetting,
  ConsentRecord,
  WebhookEvent,
  WebhookAttempt,
  User,
  UserSession,
  UserToken,
  SignInFailure,
  AuditEntry,
  SenderVerification,
  SenderRegistration,
  DedicatedNumber,
  FreeNumberClaim,
  CreditRefundLine,
  DispatcherLease,
  ShortLink,
  LinkClickEvent,
  LinkClickBucket,
  PaymentCustomer,
  PaymentCard,
  SimulatedPayment,
  Purchase,
  NumberSubscription,
  ContactImport,
  InboxRead,
  SendingBrake,
  DispatchBatch,
  SignUp,
  LiveRequest,
  AutoRechargeSetting,
  BalanceCrossing,
  CarrierRow,
  RouteRow,
  RouteMemberRow,
  CarrierSettingsVersion,
];
