import { Module } from '@nestjs/common';
import { AccountsModule } from '../accounts/accounts.module';
import { MailModule } from '../mail/mail.module';
import { UsersModule } from '../users/users.module';
import { SignUpService } from './sign-up.service';
import { SignUpsRepository } from './sign-ups.repository';

/** Self-service sign-up: pending sign-ups and the emailed link that opens a test account. No controllers: the dashboard serves the pages. */
@Module({
  imports: [AccountsModule, UsersModule, MailModule],
  providers: [SignUpsRepository, SignUpService],
  exports: [SignUpService],
})
export class SignUpModule {}
