import './pg-types';
import type { DataSourceOptions, MigrationInterface } from 'typeorm';
import type { AppConfig } from '../config/app-config';
import { pgConnectionOptions } from './primary-locator';

export type ConnectionConfig = Pick<AppConfig, 'databaseUrl' | 'databasePoolSize' | 'dependencyTimeoutMs'> & Partial<Pick<AppConfig, 'databasePoolMin'>>;

/**
 * The entity and migration lists. The composition root (src/entities.ts, src/migrations.ts) owns them, so
 * this folder imports no domain.
 */
export interface SchemaLists {
  entities: Array<new () => object>;
  migrations: Array<new () => MigrationInterface>;
}

export function typeormOptions(config: ConnectionConfig, schema: SchemaLists): DataSourceOptions {
  // A multi-host DATABASE_URL: the pool's clients find the primary themselves (primary-locator.ts).
  const pg = pgConnectionOptions(config.databaseUrl, config.dependencyTimeoutMs);
  return {
    type: 'postgres',
    url: pg.connectionString,
    entities: schema.entities,
    migrations: schema.migrations,
    migrationsTransactionMode: 'each',
    synchronize: false,
    logging: false,
    extra: {
      Client: pg.Client,
      max: config.databasePoolSize,
      // Idle connections above this many close after pg-pool's 10 s; these stay (PoolWarmup opens them).
      min: Math.min(config.databasePoolMin ?? 0, config.databasePoolSize),
      connectionTimeoutMillis: config.dependencyTimeoutMs,
      application_name: 'sms-api',
    },
  };
}
