import { DynamicModule, Module } from '@nestjs/common';
import { RedisModule } from './common/redis/redis.module';
import { AppConfig } from './config/app-config';
import { ConfigModule } from './config/config.module';
import { DatabaseModule } from './database/database.module';
import { ClockModule } from './common/time/clock.module';
import { DispatchWorkerModule } from './dispatch/dispatch-worker.module';
import { MetricsModule } from './metrics/metrics.module';

/** Background work without HTTP (APP_ROLE=worker): dispatch, carriers, receipts, inbound, the sweeper. */
@Module({})
export class WorkerModule {
  static register(config: AppConfig): DynamicModule {
    return {
      module: WorkerModule,
      imports: [ConfigModule.register(config), DatabaseModule.register(config), RedisModule, ClockModule, MetricsModule.register(false), DispatchWorkerModule],
    };
  }
}
