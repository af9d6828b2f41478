import { Module } from '@nestjs/common';
import { AccountsModule } from '../accounts/accounts.module';
import { MailModule } from '../mail/mail.module';
import { UsersModule } from '../users/users.module';
import { SendingBrakeRepository } from './sending-brake.repository';
import { SendingBrakeService } from './sending-brake.service';

/** The spending brake: counted by every send (messaging), released by owners (dashboard) and operators (CLI). */
@Module({
  imports: [AccountsModule, MailModule, UsersModule],
  providers: [SendingBrakeRepository, SendingBrakeService],
  exports: [SendingBrakeService],
})
export class SendingBrakeModule {}
