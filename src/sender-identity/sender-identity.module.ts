import { RedisModule } from '../common/redis/redis.module';
import { ConfirmationBudget } from './own-mobile/confirmation-budget';
import { Module } from '@nestjs/common';
import { AccountsModule } from '../accounts/accounts.module';
import { MessagingModule } from '../messaging/messaging.module';
import { SendersModule } from '../senders/senders.module';
import { UsersModule } from '../users/users.module';
import { OwnMobileService } from './own-mobile/own-mobile.service';
import { SenderVerificationsRepository } from './own-mobile/sender-verifications.repository';
import { PendingSendersService } from './own-mobile/pending-senders.service';
import { SenderRegistrationsController } from './sender-registrations.controller';
import { SenderRegistrationsModule } from './sender-registrations.module';
import { SenderRemovalService } from './sender-removal.service';
import { SendersController } from './senders.controller';

/**
 * Sender identity (interface: "Manages sender identities"): the /v1/senders API, the account's own mobile
 * as a sender (confirmation texts through dispatch), deactivation, and ACMA Sender ID registrations.
 */
@Module({
  imports: [SendersModule, AccountsModule, UsersModule, MessagingModule, SenderRegistrationsModule, RedisModule],
  controllers: [SendersController, SenderRegistrationsController],
  providers: [SenderVerificationsRepository, ConfirmationBudget, OwnMobileService, SenderRemovalService, PendingSendersService],
  exports: [OwnMobileService, SenderRemovalService, PendingSendersService, SenderRegistrationsModule],
})
export class SenderIdentityModule {}
