import { DynamicModule, Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import type { AppConfig } from '../config/app-config';
import { SchemaLists, typeormOptions } from './typeorm-options';
import { PoolWarmup } from './pool-warmup';
import { TableStatistics } from './table-statistics';
import { UnitOfWork } from './unit-of-work';

/**
 * The connection, the unit of work every service opens transactions with, and the planner statistics keeper.
 * `warmPool`: the service's processes open DATABASE_POOL_MIN connections before their first request or job
 * (PoolWarmup); a CLI command, which uses one or two, does not.
 */
@Global()
@Module({})
export class DatabaseModule {
  static register(config: AppConfig, schema: SchemaLists, options: { warmPool: boolean } = { warmPool: false }): DynamicModule {
    return {
      module: DatabaseModule,
      imports: [TypeOrmModule.forRoot({ ...typeormOptions(config, schema), retryAttempts: 3, retryDelay: 1000 })],
      providers: [UnitOfWork, TableStatistics, ...(options.warmPool ? [PoolWarmup] : [])],
      exports: [UnitOfWork, TableStatistics],
    };
  }
}
