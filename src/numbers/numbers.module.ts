import { Module } from '@nestjs/common';
import { SendersModule } from '../senders/senders.module';
import { UsersModule } from '../users/users.module';
import { DedicatedNumbersController } from './dedicated-numbers.controller';
import { FreeNumberService } from './free-number.service';
import { NumberImportService } from './number-import.service';
import { NumbersRepository } from './numbers.repository';
import { NumberInventoryService } from './number-inventory.service';

/** The dedicated number inventory and the free number. No queues: the operator CLI loads the inventory through it. */
@Module({
  imports: [SendersModule, UsersModule],
  controllers: [DedicatedNumbersController],
  providers: [NumbersRepository, FreeNumberService, NumberImportService, NumberInventoryService],
  exports: [FreeNumberService, NumberImportService, NumberInventoryService],
})
export class NumbersModule {}
