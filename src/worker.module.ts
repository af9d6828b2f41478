import { DynamicModule, Module } from '@nestjs/common';
import { RedisModule } from './common/redis/redis.module';
import { AppConfig } from './config/app-config';
import { ConfigModule } from './config/config.module';
import { DatabaseModule } from './database/database.module';

/**
 * Background work without HTTP (APP_ROLE=worker). Queue processors join this module as the domains
 * that need them land (dispatch, receipts, webhooks); until then the role holds only the connections.
 */
@Module({})
export class WorkerModule {
  static register(config: AppConfig): DynamicModule {
    return { module: WorkerModule, imports: [ConfigModule.register(config), DatabaseModule.register(config), RedisModule] };
  }
}
