import { Module } from '@nestjs/common';
import { AccountsModule } from '../accounts/accounts.module';
import { BillingModule } from '../billing/billing.module';
import { IdempotencyModule } from '../idempotency/idempotency.module';
import { MailModule } from '../mail/mail.module';
import { NumbersModule } from '../numbers/numbers.module';
import { PaymentsModule } from '../payments/payments.module';
import { SendersModule } from '../senders/senders.module';
import { UsersModule } from '../users/users.module';
import { CreditPurchaseHandler } from './credit-purchase.handler';
import { CreditPurchasesController } from './credit-purchases.controller';
import { CreditPurchasesService } from './credit-purchases.service';
import { InvoiceMailer } from './invoice-mailer.service';
import { InvoicesService } from './invoices.service';
import { NumberPurchaseHandler } from './number-purchase.handler';
import { NumberPurchasesController } from './number-purchases.controller';
import { NumberPurchasesService } from './number-purchases.service';
import { PurchaseAudit } from './purchase-audit.service';
import { PurchaseHandlers } from './purchase-handlers';
import { PurchaseReconciler } from './purchase-reconciler.service';
import { PurchaseRunner } from './purchase-runner.service';
import { PurchaseSettler } from './purchase-settler.service';
import { PurchasesRepository } from './purchases.repository';
import { PurchasesSwitch } from './purchases-switch.interceptor';
import { RenewalHandler } from './renewal.handler';
import { RenewalsService } from './renewals.service';
import { SubscriptionsRepository } from './subscriptions.repository';
import { AccountPurchasesService } from './account-purchases.service';

/** Purchases by API (credits, dedicated numbers) and on the Billing page, their state machine, reconciler, renewals and tax invoices. */
@Module({
  imports: [AccountsModule, BillingModule, IdempotencyModule, MailModule, NumbersModule, PaymentsModule, SendersModule, UsersModule],
  controllers: [CreditPurchasesController, NumberPurchasesController],
  providers: [
    PurchasesRepository,
    SubscriptionsRepository,
    CreditPurchaseHandler,
    NumberPurchaseHandler,
    RenewalHandler,
    PurchaseHandlers,
    InvoicesService,
    InvoiceMailer,
    PurchaseAudit,
    PurchaseSettler,
    PurchaseRunner,
    PurchasesSwitch,
    CreditPurchasesService,
    NumberPurchasesService,
    PurchaseReconciler,
    RenewalsService,
    AccountPurchasesService,
  ],
  exports: [AccountPurchasesService, PurchaseSettler, PurchaseReconciler, RenewalsService, InvoicesService, InvoiceMailer],
})
export class PurchasesModule {}
