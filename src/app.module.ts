import { DynamicModule, Module, Type } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { AccountsModule } from './accounts/accounts.module';
import { DeliveryWorkerModule } from './delivery-worker.module';
import { InboundModule } from './inbound/inbound.module';
import { MetricsModule } from './metrics/metrics.module';
import { WebhooksModule } from './webhooks/webhooks.module';
import { ClockModule } from './common/time/clock.module';
import { MessagingModule } from './messaging/messaging.module';
import { ContactsModule } from './contacts/contacts.module';
import { ListsModule } from './lists/lists.module';
import { ContactImportsModule } from './contact-imports/contact-imports.module';
import { UnsubscribesModule } from './unsubscribes/unsubscribes.module';
import { ApiKeyPolicyGuard } from './common/auth/api-key-policy.guard';
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
import { DashboardModule } from './dashboard/dashboard.module';
import { GuidesModule } from './guides/guides.module';
import { SenderIdentityModule } from './sender-identity/sender-identity.module';
import { NumbersModule } from './numbers/numbers.module';

/** The HTTP API. Guards run in order: Basic auth, the key's address allow-list and scope, then the per-account in-flight limit. */
@Module({})
export class AppModule {
  static register(config: AppConfig, extraModules: Array<Type | DynamicModule> = []): DynamicModule {
    const runsWorkers = config.appRole === 'all';
    return {
      module: AppModule,
      imports: [
        ConfigModule.register(config),
        DatabaseModule.register(config, { entities: ENTITIES, migrations: MIGRATIONS }, { servicePool: true }),
        RedisModule,
        ClockModule,
        MetricsModule.register(config.metricsEnabled),
        HealthModule.register({ carrierStatusFrom: runsWorkers ? DeliveryWorkerModule : undefined }),
        AccountsModule,
        SendersModule,
        ContactsModule,
        ListsModule,
        ContactImportsModule,
        UnsubscribesModule,
        MessagingModule,
        InboundModule,
        WebhooksModule,
        SenderIdentityModule,
        NumbersModule,
        DashboardModule,
        GuidesModule,
        // APP_ROLE=all runs the delivery workers in this process too.
        ...(runsWorkers ? [DeliveryWorkerModule] : []),
        ...extraModules,
      ],
      providers: [
        InflightLimiter,
        { provide: APP_GUARD, useClass: BasicAuthGuard },
        { provide: APP_GUARD, useClass: ApiKeyPolicyGuard },
        { provide: APP_GUARD, useClass: ConcurrencyGuard },
      ],
    };
  }
}
