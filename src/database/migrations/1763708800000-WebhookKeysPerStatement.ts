import { MigrationInterface, QueryRunner } from 'typeorm';

/** The tables whose rows name their account, checked per statement here, and each one's former key. */
const TABLES = [
  { table: 'webhook_events', constraint: 'webhook_events_account_id_fkey' },
  { table: 'webhook_attempts', constraint: 'webhook_attempts_account_id_fkey' },
];

/**
 * A webhook event's and an attempt's account are checked once per statement instead of once per row, as
 * a part's is (MessageKeysPerStatement, whose functions these triggers share): every receipt of an account
 * with a status URL writes an event, and every attempt a row. The same promises hold: new rows name an
 * existing account (locked FOR KEY SHARE until commit) or the statement fails with the former key's name;
 * deleting an account deletes its events and attempts; a row's account never changes.
 */
export class WebhookKeysPerStatement1763708800000 implements MigrationInterface {
  name = 'WebhookKeysPerStatement1763708800000';

  async up(q: QueryRunner): Promise<void> {
    for (const { table, constraint } of TABLES) {
      await q.query(`ALTER TABLE ${table} DROP CONSTRAINT ${constraint}`);
      await q.query(
        `CREATE TRIGGER ${table}_accounts_checked AFTER INSERT ON ${table} REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT
         EXECUTE FUNCTION rows_check_accounts('${table}', '${constraint}')`,
      );
      await q.query(
        `CREATE TRIGGER accounts_${table}_deleted AFTER DELETE ON accounts REFERENCING OLD TABLE AS gone_accounts FOR EACH STATEMENT
         EXECUTE FUNCTION accounts_take_rows('${table}')`,
      );
      await q.query(`
        CREATE TRIGGER ${table}_account_kept AFTER UPDATE OF account_id ON ${table} FOR EACH ROW
        WHEN (OLD.account_id IS DISTINCT FROM NEW.account_id)
        EXECUTE FUNCTION refuse_key_change('${table}', '${constraint}')`);
    }
  }

  async down(q: QueryRunner): Promise<void> {
    for (const { table, constraint } of [...TABLES].reverse()) {
      await q.query(`DROP TRIGGER ${table}_account_kept ON ${table}`);
      await q.query(`DROP TRIGGER accounts_${table}_deleted ON accounts`);
      await q.query(`DROP TRIGGER ${table}_accounts_checked ON ${table}`);
      await q.query(`ALTER TABLE ${table} ADD CONSTRAINT ${constraint} FOREIGN KEY (account_id) REFERENCES accounts (id) ON DELETE CASCADE`);
    }
  }
}
