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

  it("keeps a message in its send's account, and removes it with the account", async () => {
    const runner = dataSource.createQueryRunner();
    await runner.startTransaction();
    try {
      const [own, other]: Array<{ id: number }> = await runner.query(
        `INSERT INTO accounts (name, optout_code) VALUES ('own', 'schema-own'), ('other', 'schema-other') RETURNING id`,
      );
      const [send]: Array<{ id: number }> = await runner.query(`INSERT INTO sends (account_id, kind) VALUES ($1, 'batch') RETURNING id`, [own.id]);
      const insertMessage = (accountId: number) =>
        runner.query(
          `INSERT INTO messages (id, account_id, send_id, to_number, sender, sender_type, body, status, encoding, parts, cost, is_test, dispatch_at)
           VALUES (gen_random_uuid(), $1, $2, '61412345678', 'Brand', 'alpha', 'Hi', 'pending', 'gsm7', 1, 100, false, now())`,
          [accountId, send.id],
        );
      await insertMessage(own.id);
      await runner.query('SAVEPOINT other_account');
      await expect(insertMessage(other.id)).rejects.toThrow('violates foreign key constraint "messages_send_account_fkey"');
      await runner.query('ROLLBACK TO SAVEPOINT other_account');
      await runner.query('DELETE FROM accounts WHERE id = $1', [own.id]);
      expect(await runner.query('SELECT count(*)::int AS n FROM messages WHERE send_id = $1', [send.id])).toEqual([{ n: 0 }]);
    } finally {
      await runner.rollbackTransaction();
      await runner.release();
    }
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
