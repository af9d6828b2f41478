import { MigrationInterface, QueryRunner } from 'typeorm';

export class Foundation1763700000000 implements MigrationInterface {
  name = 'Foundation1763700000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE accounts (
        id serial PRIMARY KEY,
        name text NOT NULL,
        is_test boolean NOT NULL DEFAULT false,
        allow_duplicate_contacts boolean NOT NULL DEFAULT false,
        credit_balance bigint NOT NULL DEFAULT 0 CHECK (credit_balance >= 0),
        part_rate integer NOT NULL DEFAULT 100 CHECK (part_rate > 0),
        billing_email text,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE api_keys (
        id serial PRIMARY KEY,
        account_id integer NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        username text NOT NULL,
        password_sha256 bytea NOT NULL CHECK (octet_length(password_sha256) = 32),
        label text NOT NULL DEFAULT '',
        purchases_enabled boolean NOT NULL DEFAULT false,
        daily_limit_cents integer NOT NULL DEFAULT 50000 CHECK (daily_limit_cents >= 0),
        created_at timestamptz NOT NULL DEFAULT now(),
        revoked_at timestamptz
      )`);
    await q.query(`CREATE UNIQUE INDEX api_keys_username_key ON api_keys (username)`);
    await q.query(`CREATE INDEX api_keys_account_id_idx ON api_keys (account_id) WHERE revoked_at IS NULL`);
    await q.query(`
      CREATE TABLE senders (
        id serial PRIMARY KEY,
        account_id integer NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        value text NOT NULL,
        type text NOT NULL CHECK (type IN ('alpha', 'own', 'dedicated', 'shared')),
        status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'pending', 'removed')),
        label text NOT NULL DEFAULT '',
        is_default boolean NOT NULL DEFAULT false,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE UNIQUE INDEX senders_account_value_key ON senders (account_id, value)`);
    // Inbound routing looks a receiving number up across accounts.
    await q.query(`CREATE INDEX senders_value_active_idx ON senders (value) WHERE status = 'active'`);
    await q.query(`
      CREATE TABLE credit_ledger (
        id bigserial PRIMARY KEY,
        account_id integer NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        kind text NOT NULL CHECK (kind IN ('grant', 'debit', 'refund')),
        amount bigint NOT NULL CHECK ((kind = 'debit' AND amount < 0) OR (kind <> 'debit' AND amount > 0)),
        reason text NOT NULL DEFAULT '',
        reference text NOT NULL DEFAULT '',
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX credit_ledger_account_created_idx ON credit_ledger (account_id, created_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE credit_ledger`);
    await q.query(`DROP TABLE senders`);
    await q.query(`DROP TABLE api_keys`);
    await q.query(`DROP TABLE accounts`);
  }
}
