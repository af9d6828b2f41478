import { Module } from '@nestjs/common';
import { AccountsModule } from '../accounts/accounts.module';
import { MailModule } from '../mail/mail.module';
import { SendersModule } from '../senders/senders.module';
import { UsersModule } from '../users/users.module';
import { SenderRegistrationsRepository } from './registrations/sender-registrations.repository';
import { SenderRegistrationsService } from './registrations/sender-registrations.service';

/** Sender ID registrations on their own (no queues, no Redis), so the operator CLI can review them. */
@Module({
  imports: [SendersModule, AccountsModule, UsersModule, MailModule],
  providers: [SenderRegistrationsRepository, SenderRegistrationsService],
  exports: [SenderRegistrationsService],
})
export class SenderRegistrationsModule {}
