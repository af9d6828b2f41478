import { DynamicModule, Module } from '@nestjs/common';
import { RedisModule } from './common/redis/redis.module';
import { AppConfig } from './config/app-config';
import { ConfigModule } from './config/config.module';
import { DatabaseModule } from './database/database.module';
import { ENTITIES } from './entities';
import { ClockModule } from './common/time/clock.module';
import { DeliveryWorkerModule } from './delivery-worker.module';
import { HealthModule } from './health/health.module';
import { MetricsModule } from './metrics/metrics.module';
import { MIGRATIONS } from './migrations';
import { WorkerHttpCloser } from './worker-http-closer';

/**
 * A worker process (APP_ROLE=worker): dispatch, carriers, receipts, inbound, webhooks and the sweeper.
 * No controllers are mounted here (worker.ts serves /health and /metrics on a plain listener).
 */
@Module({})
export class WorkerModule {
  static register(config: AppConfig): DynamicModule {
    return {
      module: WorkerModule,
      imports: [
        ConfigModule.register(config),
        DatabaseModule.register(config, { entities: ENTITIES, migrations: MIGRATIONS }, { servicePool: true }),
        RedisModule,
        ClockModule,
        MetricsModule.register(false),
        HealthModule.register({ carrierStatusFrom: DeliveryWorkerModule }),
        DeliveryWorkerModule,
      ],
      providers: [WorkerHttpCloser],
    };
  }
}
