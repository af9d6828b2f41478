import { Module } from '@nestjs/common';
import { BillingModule } from '../billing/billing.module';
import { SendersModule } from '../senders/senders.module';
import { CallerVerifier } from '../common/auth/caller-verifier';
import { AccountController } from './account.controller';
import { AccountsRepository } from './accounts.repository';
import { AccountsService } from './accounts.service';
import { ApiKeysRepository } from './api-keys.repository';
import { ApiKeysService } from './api-keys.service';
import { CredentialsService } from './credentials.service';
import { DailyMessageCapRepository } from './daily-message-cap.repository';
import { DailyMessageCap } from './daily-message-cap.service';

@Module({
  imports: [SendersModule, BillingModule],
  controllers: [AccountController],
  providers: [
    AccountsRepository,
    ApiKeysRepository,
    AccountsService,
    ApiKeysService,
    CredentialsService,
    DailyMessageCapRepository,
    DailyMessageCap,
    { provide: CallerVerifier, useExisting: CredentialsService },
  ],
  exports: [AccountsService, ApiKeysService, DailyMessageCap, CallerVerifier],
})
export class AccountsModule {}
