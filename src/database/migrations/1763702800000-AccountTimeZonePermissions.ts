import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The account's time zone (every page and export shows local time in it; quiet hours fall back to it)
 * and three permissions for the business dashboard's pages: sending, contacts, the inbox. Existing
 * non-owner users get none of the new permissions until an owner grants them.
 */
const ZONES = [
  'Australia/Sydney',
  'Australia/Melbourne',
  'Australia/Brisbane',
  'Australia/Lindeman',
  'Australia/Hobart',
  'Australia/Adelaide',
  'Australia/Broken_Hill',
  'Australia/Darwin',
  'Australia/Perth',
  'Australia/Eucla',
  'Australia/Lord_Howe',
];
const OLD_PERMISSIONS = ['manage_api_keys', 'manage_billing', 'manage_senders', 'manage_settings'];
const NEW_PERMISSIONS = [...OLD_PERMISSIONS, 'send_messages', 'manage_contacts', 'read_inbox'];
const textArray = (values: string[]) => `ARRAY[${values.map((v) => `'${v}'`).join(', ')}]::text[]`;

export class AccountTimeZonePermissions1763702800000 implements MigrationInterface {
  name = 'AccountTimeZonePermissions1763702800000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE accounts ADD COLUMN time_zone text NOT NULL DEFAULT 'Australia/Sydney'`);
    await q.query(`ALTER TABLE accounts ADD CONSTRAINT accounts_time_zone_check CHECK (time_zone = ANY (${textArray(ZONES)}))`);
    await q.query(`ALTER TABLE users DROP CONSTRAINT users_permissions_check`);
    await q.query(`ALTER TABLE users ADD CONSTRAINT users_permissions_check CHECK (permissions <@ ${textArray(NEW_PERMISSIONS)})`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`UPDATE users SET permissions = ARRAY(SELECT p FROM unnest(permissions) p WHERE p = ANY (${textArray(OLD_PERMISSIONS)}))`);
    await q.query(`ALTER TABLE users DROP CONSTRAINT users_permissions_check`);
    await q.query(`ALTER TABLE users ADD CONSTRAINT users_permissions_check CHECK (permissions <@ ${textArray(OLD_PERMISSIONS)})`);
    await q.query(`ALTER TABLE accounts DROP CONSTRAINT accounts_time_zone_check`);
    await q.query(`ALTER TABLE accounts DROP COLUMN time_zone`);
  }
}
