import { DataSource } from 'typeorm';
import { parseDatabaseUrl } from './database-url';
import { openClient } from './primary-locator';
import { ConnectionConfig, SchemaLists, typeormOptions } from './typeorm-options';

// Arbitrary constant: several instances starting together apply migrations one at a time.
const MIGRATION_LOCK = 727_001;

/** Creates the database named in DATABASE_URL when it does not exist yet. */
export async function ensureDatabaseExists(databaseUrl: string, connectTimeoutMs = 0): Promise<boolean> {
  const url = parseDatabaseUrl(databaseUrl);
  const name = url.database;
  if (!name) throw new Error('DATABASE_URL names no database');
  // On the primary when the URL lists several hosts: a standby cannot create a database.
  const client = await openClient(url.withDatabase('postgres'), { connectionTimeoutMillis: connectTimeoutMs });
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount) return false;
    try {
      await client.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`);
    } catch (err) {
      if ((err as { code?: string }).code !== '42P04') throw err; // created concurrently by another instance
      return false;
    }
    return true;
  } finally {
    await client.end();
  }
}

/** Applies pending migrations under an advisory lock; returns the names applied. */
export async function runMigrations(config: ConnectionConfig, migrations: SchemaLists['migrations']): Promise<string[]> {
  const options = typeormOptions(config, { entities: [], migrations });
  const dataSource = new DataSource({ ...options, extra: { ...(options.extra as object), max: 2 } });
  await dataSource.initialize();
  const runner = dataSource.createQueryRunner();
  try {
    await runner.connect();
    await runner.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    try {
      const applied = await dataSource.runMigrations({ transaction: 'each' });
      return applied.map((m) => m.name);
    } finally {
      await runner.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]);
    }
  } finally {
    await runner.release();
    await dataSource.destroy();
  }
}

export async function prepareDatabase(config: ConnectionConfig, migrations: SchemaLists['migrations']): Promise<{ created: boolean; applied: string[] }> {
  const created = await ensureDatabaseExists(config.databaseUrl, config.dependencyTimeoutMs);
  const applied = await runMigrations(config, migrations);
  return { created, applied };
}
