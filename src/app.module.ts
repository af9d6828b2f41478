import { DynamicModule, Module, Type } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { AccountsModule } from './accounts/accounts.module';
import { DispatchWorkerModule } from './dispatch/dispatch-worker.module';
import { QueueModule } from './dispatch/queue.module';
import { InboundModule } from './inbound/inbound.module';
import { MetricsModule } from './metrics/metrics.module';
import { WebhooksModule } from './webhooks/webhooks.module';
import { ClockModule } from './common/time/clock.module';
import { MessagingModule } from './messaging/messaging.module';
import { ContactsModule } from './contacts/contacts.module';
import { ListsModule } from './lists/lists.module';
import { UnsubscribesModule } from './unsubscribes/unsubscribes.module';
import { BasicAuthGuard } from './common/auth/basic-auth.guard';
import { ConcurrencyGuard } from './common/concurrency/concurrency.guard';
import { InflightLimiter } from './common/concurrency/inflight-limiter';
import { RedisModule } from './common/redis/redis.module';
import { AppConfig } from './config/app-config';
import { ConfigModule } from './config/config.module';
import { DatabaseModule } from './database/database.module';
import { ENTITIES } from './entities';
import { HealthModule } from './health/health.module';
import { MIGRATIONS } from './migrations';
import { SendersModule } from './senders/senders.module';

/** The HTTP API. Guards run in order: Basic auth, then the per-account in-flight limit. */
@Module({})
export class AppModule {
  static register(config: AppConfig, extraModules: Array<Type | DynamicModule> = []): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.register(config),
        DatabaseModule.register(config, { entities: ENTITIES, migrations: MIGRATIONS }),
        RedisModule,
        ClockModule,
        MetricsModule.register(config.metricsEnabled),
        QueueModule,
        HealthModule,
        AccountsModule,
        SendersModule,
        ContactsModule,
        ListsModule,
        UnsubscribesModule,
        MessagingModule,
        InboundModule,
        WebhooksModule,
        // APP_ROLE=all runs the delivery workers in this process too.
        ...(config.appRole === 'all' ? [DispatchWorkerModule] : []),
        ...extraModules,
      ],
      providers: [InflightLimiter, { provide: APP_GUARD, useClass: BasicAuthGuard }, { provide: APP_GUARD, useClass: ConcurrencyGuard }],
    };
  }
}
