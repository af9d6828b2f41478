import { DataSource } from 'typeorm';
import { loadConfig } from '../../src/config/app-config';
import { typeormOptions } from '../../src/database/typeorm-options';
import { ENTITIES } from '../../src/entities';
import { MIGRATIONS } from '../../src/migrations';
import { databaseCatalog, entityCatalog } from '../support/schema-catalog';

/** The migrations define the schema; the entities must declare exactly what they build. */
describe('Schema', () => {
  let dataSource: DataSource;

  beforeAll(async () => {
    // The file's own copy of the migrated template (per-file-database.ts set DATABASE_URL).
    dataSource = new DataSource({ ...typeormOptions(loadConfig(process.env), { entities: ENTITIES, migrations: MIGRATIONS }), extra: { max: 1 } });
    await dataSource.initialize();
  });

  afterAll(async () => {
    await dataSource?.destroy();
  });

  it('has no migration pending', async () => {
    await expect(dataSource.showMigrations()).resolves.toBe(false);
  });

  it('makes TypeORM propose no change to the migrated database', async () => {
    const { upQueries } = await dataSource.driver.createSchemaBuilder().log();
    // The queries are the drift: what migration:generate would write.
    expect(upQueries.map((query) => query.query)).toEqual([]);
  });

  it('declares every table, index, check and foreign key as the migrations define it', async () => {
    const runner = dataSource.createQueryRunner();
    await runner.startTransaction();
    try {
      const migrated = await databaseCatalog(dataSource, runner);
      expect(await entityCatalog(dataSource, runner, migrated)).toEqual(migrated);
    } finally {
      await runner.rollbackTransaction();
      await runner.release();
    }
  });
});
