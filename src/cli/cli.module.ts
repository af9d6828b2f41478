import { DynamicModule, Module } from '@nestjs/common';
import { AccountsModule } from '../accounts/accounts.module';
import { BillingModule } from '../billing/billing.module';
import { AppConfig } from '../config/app-config';
import { ConfigModule } from '../config/config.module';
import { DatabaseModule } from '../database/database.module';
import { ENTITIES } from '../entities';
import { ListsModule } from '../lists/lists.module';
import { MIGRATIONS } from '../migrations';
import { SendersModule } from '../senders/senders.module';

/** The services the operator commands call; no HTTP, no Redis. */
@Module({})
export class CliModule {
  static register(config: AppConfig): DynamicModule {
    return { module: CliModule, imports: [ConfigModule.register(config), DatabaseModule.register(config, { entities: ENTITIES, migrations: MIGRATIONS }), AccountsModule, SendersModule, BillingModule, ListsModule] };
  }
}
