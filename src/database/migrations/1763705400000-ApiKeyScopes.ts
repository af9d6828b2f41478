import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Scoped API keys: what a key may do (scopes), from where (a client-address allow-list of CIDR
 * blocks) and how much it may send a day (a cap in messages). Every existing key gets every scope:
 * the purchases scope is the key's existing purchases switch (purchases_enabled), so each key keeps
 * exactly what it had. A capped key's count for the day (in the account's time zone) lives in
 * api_key_daily_messages, one row per key, taken in the send's own transaction.
 */
export class ApiKeyScopes1763705400000 implements MigrationInterface {
  name = 'ApiKeyScopes1763705400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE api_keys
        ADD COLUMN scopes text[] NOT NULL DEFAULT '{messages:send,messages:read,contacts,senders,webhooks,account}',
        ADD COLUMN allowed_cidrs text[] NOT NULL DEFAULT '{}',
        ADD COLUMN daily_message_cap integer,
        ADD CONSTRAINT api_keys_scopes_check CHECK (scopes <@ ARRAY['messages:send', 'messages:read', 'contacts', 'senders', 'webhooks', 'account']::text[]),
        ADD CONSTRAINT api_keys_daily_message_cap_check CHECK (daily_message_cap IS NULL OR daily_message_cap > 0)`);
    await q.query(`
      CREATE TABLE api_key_daily_messages (
        api_key_id integer PRIMARY KEY CONSTRAINT api_key_daily_messages_api_key_id_fkey REFERENCES api_keys (id) ON DELETE CASCADE,
        day date NOT NULL,
        messages integer NOT NULL CONSTRAINT api_key_daily_messages_messages_check CHECK (messages >= 0)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE api_key_daily_messages`);
    await q.query(`ALTER TABLE api_keys DROP COLUMN scopes, DROP COLUMN allowed_cidrs, DROP COLUMN daily_message_cap`);
  }
}
