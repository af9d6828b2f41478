import './pg-types';
import type { DataSourceOptions, MigrationInterface } from 'typeorm';
import type { AppConfig } from '../config/app-config';

export type ConnectionConfig = Pick<AppConfig, 'databaseUrl' | 'databasePoolSize' | 'dependencyTimeoutMs'>;

/**
 * The entity and migration lists. The composition root (src/entities.ts, src/migrations.ts) owns them, so
 * this folder imports no domain.
 */
export interface SchemaLists {
  entities: Array<new () => object>;
  migrations: Array<new () => MigrationInterface>;
}

export function typeormOptions(config: ConnectionConfig, schema: SchemaLists): DataSourceOptions {
  return {
    type: 'postgres',
    url: config.databaseUrl,
    entities: schema.entities,
    migrations: schema.migrations,
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
