import { DataSource, QueryRunner, TableCheck, TableForeignKey, TableIndex } from 'typeorm';

/**
 * Tables, indexes, checks and foreign keys as PostgreSQL prints them, keyed `table <name>`, `index <name>`
 * and `constraint <name>`. TypeORM's schema diff ignores tables that have no entity, compares indexes by name
 * and column set only (not column order or WHERE) and checks by name only; this catalog covers those gaps.
 * Columns, primary keys and unique constraints are left to the diff, which compares them fully. A partitioned
 * table is compared by its parent alone: its partitions (and what they inherit) are the maintenance's.
 */
export type Catalog = Record<string, string>;

const CATALOG_SQL = `
  SELECT 'table ' || relname AS key, '' AS def FROM pg_class
   WHERE relnamespace = 'public'::regnamespace AND relkind IN ('r', 'p') AND NOT relispartition AND relname <> $1
  UNION ALL
  SELECT 'index ' || i.relname, pg_get_indexdef(i.oid)
    FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid
   WHERE i.relnamespace = 'public'::regnamespace AND NOT x.indisprimary AND NOT t.relispartition AND t.relname <> $1
  UNION ALL
  SELECT 'constraint ' || c.conname, pg_get_constraintdef(c.oid) FROM pg_constraint c JOIN pg_class t ON t.oid = c.conrelid
   WHERE c.connamespace = 'public'::regnamespace AND c.contype IN ('c', 'f') AND NOT t.relispartition`;

export async function databaseCatalog(dataSource: DataSource, runner: QueryRunner): Promise<Catalog> {
  const rows: Array<{ key: string; def: string }> = await runner.query(CATALOG_SQL, [dataSource.options.migrationsTableName ?? 'migrations']);
  return Object.fromEntries(rows.map((row) => [row.key, row.def]));
}

const PROBE = 'schema_probe_';

/**
 * The catalog the entities declare. TypeORM builds each index, check and foreign key under a probe name
 * inside the runner's open transaction (the caller rolls it back), and PostgreSQL prints it back. An index
 * declared by name only (`synchronize: false`) has no definition to build: it is expected to exist.
 */
export async function entityCatalog(dataSource: DataSource, runner: QueryRunner, migrated: Catalog): Promise<Catalog> {
  const declared: Catalog = {};
  const probes = new Map<string, string>();
  const probeName = (key: string) => {
    const name = `${PROBE}${probes.size}`;
    probes.set(name, key);
    return name;
  };
  for (const entity of dataSource.entityMetadatas) {
    declared[`table ${entity.tableName}`] = '';
    for (const index of entity.indices) {
      const key = `index ${index.name}`;
      if (!index.synchronize) {
        declared[key] = migrated[key] ?? 'declared with synchronize: false, but not in the database';
        continue;
      }
      const built = TableIndex.create(index);
      built.name = probeName(key);
      await runner.createIndex(entity.tablePath, built);
    }
    for (const check of entity.checks) {
      const built = TableCheck.create(check);
      built.name = probeName(`constraint ${check.name}`);
      await runner.createCheckConstraint(entity.tablePath, built);
    }
    for (const foreignKey of entity.foreignKeys) {
      const built = TableForeignKey.create(foreignKey, dataSource.driver);
      built.name = probeName(`constraint ${foreignKey.name}`);
      await runner.createForeignKey(entity.tablePath, built);
    }
  }
  for (const [key, def] of Object.entries(await databaseCatalog(dataSource, runner))) {
    const probe = key.slice(key.indexOf(' ') + 1);
    const declaredKey = probes.get(probe);
    if (declaredKey) declared[declaredKey] = def.replace(probe, declaredKey.slice(declaredKey.indexOf(' ') + 1));
  }
  return declared;
}
