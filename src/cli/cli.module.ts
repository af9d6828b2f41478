import { DynamicModule, Module } from '@nestjs/common';
import { AccountsModule } from '../accounts/accounts.module';
import { BillingModule } from '../billing/billing.module';
import { AppConfig } from '../config/app-config';
import { ConfigModule } from '../config/config.module';
import { DatabaseModule } from '../database/database.module';
import type { SchemaLists } from '../database/typeorm-options';
import { ListsModule } from '../lists/lists.module';
import { SendersModule } from '../senders/senders.module';
import { ClockModule } from '../common/time/clock.module';
import { UsersModule } from '../users/users.module';
import { NumbersModule } from '../numbers/numbers.module';
import { SenderRegistrationsModule } from '../sender-identity/sender-registrations.module';
import { PaymentsModule } from '../payments/payments.module';
import { PurchasesModule } from '../purchases/purchases.module';

/** The services the operator commands call; no HTTP, no Redis. */
@Module({})
export class CliModule {
  static register(config: AppConfig, schema: SchemaLists): DynamicModule {
    return {
      module: CliModule,
      imports: [
        ConfigModule.register(config),
        DatabaseModule.register(config, schema),
        ClockModule,
        AccountsModule,
        SendersModule,
        BillingModule,
        ListsModule,
        UsersModule,
        SenderRegistrationsModule,
        NumbersModule,
        PaymentsModule,
        PurchasesModule,
      ],
    };
  }
}
