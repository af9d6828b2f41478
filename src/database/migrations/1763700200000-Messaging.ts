import { MigrationInterface, QueryRunner } from 'typeorm';

export class Messaging1763700200000 implements MigrationInterface {
  name = 'Messaging1763700200000';

  async up(q: QueryRunner): Promise<void> {
    // The code behind the account's {optout} link (SHORT_LINK_BASE/o/{code}).
    await q.query(`ALTER TABLE accounts ADD COLUMN optout_code text`);
    await q.query(`UPDATE accounts SET optout_code = substr(md5(random()::text || id::text), 1, 10)`);
    await q.query(`ALTER TABLE accounts ALTER COLUMN optout_code SET NOT NULL`);
    await q.query(`CREATE UNIQUE INDEX accounts_optout_code_key ON accounts (optout_code)`);

    await q.query(`
      CREATE TABLE sends (
        id bigserial PRIMARY KEY,
        account_id integer NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        api_key_id integer REFERENCES api_keys(id) ON DELETE SET NULL,
        kind text NOT NULL CHECK (kind IN ('batch', 'list')),
        list_id bigint,
        ignore_unsubscribes boolean NOT NULL DEFAULT false,
        shorten_urls boolean NOT NULL DEFAULT false,
        message_count integer NOT NULL DEFAULT 0,
        total_cost bigint NOT NULL DEFAULT 0,
        custom_ref text,
        scheduled_for timestamptz,
        stagger_minutes integer,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX sends_account_idx ON sends (account_id, id)`);

    await q.query(`
      CREATE TABLE messages (
        id uuid PRIMARY KEY,
        -- insertion order, so "newest first" is stable within one batch
        seq bigint GENERATED ALWAYS AS IDENTITY,
        account_id integer NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        send_id bigint NOT NULL REFERENCES sends(id) ON DELETE CASCADE,
        to_number text NOT NULL,
        sender text NOT NULL,
        sender_type text NOT NULL,
        body text NOT NULL,
        custom_ref text,
        status text NOT NULL CHECK (status IN ('pending', 'scheduled', 'sent', 'delivered', 'failed', 'cancelled')),
        encoding text NOT NULL CHECK (encoding IN ('gsm7', 'ucs2')),
        parts smallint NOT NULL CHECK (parts BETWEEN 1 AND 99),
        cost bigint NOT NULL CHECK (cost >= 0),
        is_test boolean NOT NULL,
        scheduled_for timestamptz,
        dispatch_at timestamptz NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    // Dispatch: due pending and scheduled messages in time order.
    await q.query(`CREATE INDEX messages_due_idx ON messages (dispatch_at) WHERE status IN ('pending', 'scheduled')`);
    // History (newest first) and lookups by account.
    await q.query(`CREATE INDEX messages_account_created_idx ON messages (account_id, created_at DESC, seq DESC)`);
    await q.query(`CREATE INDEX messages_account_custom_ref_idx ON messages (account_id, custom_ref, created_at DESC, seq DESC) WHERE custom_ref IS NOT NULL`);
    // Cancellation and status by send.
    await q.query(`CREATE INDEX messages_send_idx ON messages (send_id)`);

    await q.query(`
      CREATE TABLE idempotency_keys (
        api_key_id integer NOT NULL REFERENCES api_keys(id) ON DELETE CASCADE,
        key text NOT NULL CHECK (length(key) BETWEEN 1 AND 255),
        fingerprint bytea NOT NULL,
        response_status integer NOT NULL,
        response_content_type text NOT NULL,
        response_body text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL,
        PRIMARY KEY (api_key_id, key)
      )`);
    await q.query(`CREATE INDEX idempotency_keys_expires_idx ON idempotency_keys (expires_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE idempotency_keys`);
    await q.query(`DROP TABLE messages`);
    await q.query(`DROP TABLE sends`);
    await q.query(`ALTER TABLE accounts DROP COLUMN optout_code`);
  }
}
