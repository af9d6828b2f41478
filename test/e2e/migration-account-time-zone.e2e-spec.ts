import { DataSource, QueryRunner } from 'typeorm';
import { loadConfig } from '../../src/config/app-config';
import { AccountTimeZonePermissions1763702800000 } from '../../src/database/migrations/1763702800000-AccountTimeZonePermissions';
import { typeormOptions } from '../../src/database/typeorm-options';

/**
 * The account time zone and the dashboard's new permissions, on rows written before them: run down, write
 * an account and a user as the layout before did, then up again, in one transaction that is rolled back.
 */
describe('Migration: account time zone and permissions', () => {
  let dataSource: DataSource;
  let q: QueryRunner;
  const migration = new AccountTimeZonePermissions1763702800000();

  beforeAll(async () => {
    dataSource = new DataSource({ ...typeormOptions(loadConfig(process.env), { entities: [], migrations: [] }), extra: { max: 1 } });
    await dataSource.initialize();
    q = dataSource.createQueryRunner();
    await q.startTransaction();
    await migration.down(q);
  });

  afterAll(async () => {
    await q.rollbackTransaction();
    await q.release();
    await dataSource.destroy();
  });

  it('puts existing accounts on Sydney time and gives existing users none of the new permissions', async () => {
    const [{ id: accountId }] = await q.query(`INSERT INTO accounts (name, optout_code) VALUES ('before', 'migr-tz1') RETURNING id`);
    const [{ id: userId }] = await q.query(
      `INSERT INTO users (account_id, email, name, is_owner, permissions) VALUES ($1, 'staff@example.com', 'Staff', false, ARRAY['manage_settings']) RETURNING id`,
      [accountId],
    );
    await q.query('SAVEPOINT old_check');
    await expect(q.query(`UPDATE users SET permissions = ARRAY['send_messages'] WHERE id = $1`, [userId])).rejects.toThrow(/users_permissions_check/);
    await q.query('ROLLBACK TO SAVEPOINT old_check');

    await migration.up(q);

    expect(await q.query(`SELECT time_zone FROM accounts WHERE id = $1`, [accountId])).toEqual([{ time_zone: 'Australia/Sydney' }]);
    expect(await q.query(`SELECT permissions FROM users WHERE id = $1`, [userId])).toEqual([{ permissions: ['manage_settings'] }]);
    await q.query(`UPDATE users SET permissions = ARRAY['manage_settings', 'send_messages', 'manage_contacts', 'read_inbox'] WHERE id = $1`, [userId]);
    await q.query(`UPDATE accounts SET time_zone = 'Australia/Perth' WHERE id = $1`, [accountId]);
    await q.query('SAVEPOINT bad_zone');
    await expect(q.query(`UPDATE accounts SET time_zone = 'Europe/London' WHERE id = $1`, [accountId])).rejects.toThrow(/accounts_time_zone_check/);
    await q.query('ROLLBACK TO SAVEPOINT bad_zone');

    await migration.down(q);
    expect(await q.query(`SELECT permissions FROM users WHERE id = $1`, [userId])).toEqual([{ permissions: ['manage_settings'] }]);
  });
});
