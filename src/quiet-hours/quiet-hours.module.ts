import { Module } from '@nestjs/common';
import { AccountsModule } from '../accounts/accounts.module';
import { QuietHoursController } from './quiet-hours.controller';
import { QuietHoursRepository } from './quiet-hours.repository';
import { QuietHoursService } from './quiet-hours.service';

@Module({
  imports: [AccountsModule],
  controllers: [QuietHoursController],
  providers: [QuietHoursRepository, QuietHoursService],
  exports: [QuietHoursService],
})
export class QuietHoursModule {}
