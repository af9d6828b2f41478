import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Sends made from the dashboard's compose page: who sent it (kept as null when the user is removed) and
 * the form's key, unique per account, so a form submitted twice (a double click, a resubmitted page)
 * stores one send: the second insert finds the first's row and sends nothing.
 */
export class DashboardSends1763704200000 implements MigrationInterface {
  name = 'DashboardSends1763704200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE sends ADD COLUMN user_id integer`);
    await q.query(`ALTER TABLE sends ADD COLUMN form_key uuid`);
    await q.query(`ALTER TABLE sends ADD CONSTRAINT sends_user_id_fkey FOREIGN KEY (user_id) REFERENCES users (id) ON DELETE SET NULL`);
    await q.query(`CREATE UNIQUE INDEX sends_form_key_idx ON sends (account_id, form_key) WHERE form_key IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX sends_form_key_idx`);
    await q.query(`ALTER TABLE sends DROP CONSTRAINT sends_user_id_fkey`);
    await q.query(`ALTER TABLE sends DROP COLUMN form_key`);
    await q.query(`ALTER TABLE sends DROP COLUMN user_id`);
  }
}
