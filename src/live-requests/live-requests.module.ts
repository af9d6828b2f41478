import { Module } from '@nestjs/common';
import { AccountsModule } from '../accounts/accounts.module';
import { BillingModule } from '../billing/billing.module';
import { MailModule } from '../mail/mail.module';
import { UsersModule } from '../users/users.module';
import { LiveRequestsRepository } from './live-requests.repository';
import { LiveRequestsService } from './live-requests.service';

/** Test accounts going live: requests from the Go live page, decided at the operator CLI. No queues, no Redis. */
@Module({
  imports: [AccountsModule, BillingModule, UsersModule, MailModule],
  providers: [LiveRequestsRepository, LiveRequestsService],
  exports: [LiveRequestsService],
})
export class LiveRequestsModule {}
