import { Module } from '@nestjs/common';
import { AccountsModule } from '../accounts/accounts.module';
import { BillingModule } from '../billing/billing.module';
import { MailModule } from '../mail/mail.module';
import { PaymentsModule } from '../payments/payments.module';
import { PurchasesModule } from '../purchases/purchases.module';
import { UsersModule } from '../users/users.module';
import { AutoRechargesRepository } from './auto-recharges.repository';
import { BalanceSettingsService } from './balance-settings.service';
import { CrossingHandler } from './crossing-handler.service';

/** Auto-recharge and the low-balance warning: their settings, and the handling of each balance crossing. */
@Module({
  imports: [AccountsModule, BillingModule, MailModule, PaymentsModule, PurchasesModule, UsersModule],
  providers: [AutoRechargesRepository, BalanceSettingsService, CrossingHandler],
  exports: [BalanceSettingsService, CrossingHandler],
})
export class RechargeModule {}
