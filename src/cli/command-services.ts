import 'reflect-metadata';
import { DynamicModule, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ClockModule } from '../common/time/clock.module';
import { UsageText } from '../common/errors/error-catalogue';
import type { AppConfig } from '../config/app-config';
import { ConfigModule } from '../config/config.module';
import { parseDatabaseUrl } from '../database/database-url';
import { DatabaseModule } from '../database/database.module';
import { openClient } from '../database/primary-locator';
import type { SchemaLists } from '../database/typeorm-options';
import { CliLogger } from './cli-logger';
import type { CommandServices, ModuleImport } from './command';

/** A failure to report as `error: …` with exit 1 (not a usage error). */
export class CommandError extends Error {}

/**
 * A command runs against the schema this build expects, and never changes it: db:migrate (or the
 * service's start) does. One query over one connection, before the pool opens.
 */
export async function checkSchema(config: AppConfig, migrations: SchemaLists['migrations']): Promise<void> {
  const expected = migrations.map((M) => new M().name ?? M.name);
  let client: Awaited<ReturnType<typeof openClient>> | undefined;
  let applied: Set<string>;
  try {
    client = await openClient(config.databaseUrl, { connectionTimeoutMillis: config.dependencyTimeoutMs, application_name: 'sms-cli' });
    applied = new Set((await client.query<{ name: string }>('SELECT name FROM migrations')).rows.map((r) => r.name));
  } catch (err) {
    const code = (err as { code?: string }).code;
    // 3D000: no such database; 42P01: no migrations table (never migrated).
    if (code === '3D000' || code === '42P01') throw new CommandError(UsageText.databaseNotMigrated(parseDatabaseUrl(config.databaseUrl).database));
    throw err;
  } finally {
    await client?.end().catch(() => undefined);
  }
  const pending = expected.filter((name) => !applied.has(name));
  if (pending.length > 0) throw new CommandError(UsageText.migrationsPending(pending.length));
}

/**
 * Starts the configuration, the database pool, the clock and the given modules in a Nest application
 * context: the services a command uses, and nothing else of the service (no HTTP, queues or timers of
 * other modules).
 */
export async function startServices(config: AppConfig, schema: SchemaLists, modules: readonly ModuleImport[]): Promise<CommandServices & { close(): Promise<void> }> {
  await checkSchema(config, schema.migrations);
  @Module({})
  class CommandModule {}
  const root: DynamicModule = {
    module: CommandModule,
    imports: [ConfigModule.register(config), DatabaseModule.register(config, { entities: schema.entities, migrations: [] }), ClockModule, ...modules],
  };
  // abortOnError false: a failure while starting is thrown to cli.ts (one `error:` line), not process.exit(1) after Nest's log.
  const app = await NestFactory.createApplicationContext(root, { logger: new CliLogger(), abortOnError: false });
  return { config, schema, get: (type) => app.get(type), close: () => app.close() };
}
