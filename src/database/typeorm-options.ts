import './pg-types';
import type { DataSourceOptions } from 'typeorm';
import type { AppConfig } from '../config/app-config';
import { ENTITIES } from './entities';
import { MIGRATIONS } from './migrations';

export function typeormOptions(config: Pick<AppConfig, 'databaseUrl' | 'databasePoolSize' | 'dependencyTimeoutMs'>): DataSourceOptions {
  return {
    type: 'postgres',
    url: config.databaseUrl,
    entities: ENTITIES,
    migrations: MIGRATIONS,
    migrationsTransactionMode: 'each',
    synchronize: false,
    logging: false,
    extra: {
      max: config.databasePoolSize,
      connectionTimeoutMillis: config.dependencyTimeoutMs,
      application_name: 'sms-api',
    },
  };
}
