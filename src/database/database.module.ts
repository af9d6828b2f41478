import { DynamicModule, Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import type { AppConfig } from '../config/app-config';
import { SchemaLists, typeormOptions } from './typeorm-options';
import { TableStatistics } from './table-statistics';
import { UnitOfWork } from './unit-of-work';

/** The connection, the unit of work every service opens transactions with, and the planner statistics keeper. */
@Global()
@Module({})
export class DatabaseModule {
  static register(config: AppConfig, schema: SchemaLists): DynamicModule {
    return {
      module: DatabaseModule,
      imports: [TypeOrmModule.forRoot({ ...typeormOptions(config, schema), retryAttempts: 3, retryDelay: 1000 })],
      providers: [UnitOfWork, TableStatistics],
      exports: [UnitOfWork, TableStatistics],
    };
  }
}
