import { DynamicModule, Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import type { AppConfig } from '../config/app-config';
import { SchemaLists, typeormOptions } from './typeorm-options';
import { ConnectionWatchdog } from './connection-watchdog';
import { PoolWarmup } from './pool-warmup';
import { TableStatistics } from './table-statistics';
import { UnitOfWork } from './unit-of-work';

/**
 * The connection, the unit of work every service opens transactions with, and the planner statistics keeper.
 * `servicePool`: the service's processes open DATABASE_POOL_MIN connections before their first request or job
 * (PoolWarmup) and end connections to a host that stopped answering (ConnectionWatchdog); a CLI command,
 * which uses one or two for moments, does neither.
 */
@Global()
@Module({})
export class DatabaseModule {
  static register(config: AppConfig, schema: SchemaLists, options: { servicePool: boolean } = { servicePool: false }): DynamicModule {
    return {
      module: DatabaseModule,
      imports: [TypeOrmModule.forRoot({ ...typeormOptions(config, schema), retryAttempts: 3, retryDelay: 1000 })],
      providers: [UnitOfWork, TableStatistics, ...(options.servicePool ? [PoolWarmup, ConnectionWatchdog] : [])],
      exports: [UnitOfWork, TableStatistics],
    };
  }
}
