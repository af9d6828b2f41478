import { MigrationInterface, QueryRunner } from 'typeorm';

export class Users1763701100000 implements MigrationInterface {
  name = 'Users1763701100000';

  async up(q: QueryRunner): Promise<void> {
    // People who sign in to the dashboard; each belongs to one account. Emails are unique and stored
    // lowercased; a user has no password until the invitation link is used.
    await q.query(`
      CREATE TABLE users (
        id serial PRIMARY KEY,
        account_id integer NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        email text NOT NULL CONSTRAINT users_email_check CHECK (email = lower(email) AND length(email) BETWEEN 3 AND 254),
        name text NOT NULL DEFAULT '',
        password_hash text,
        is_owner boolean NOT NULL DEFAULT false,
        permissions text[] NOT NULL DEFAULT '{}'
          CONSTRAINT users_permissions_check CHECK (permissions <@ ARRAY['manage_api_keys', 'manage_billing', 'manage_senders', 'manage_settings']::text[]),
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE UNIQUE INDEX users_email_key ON users (email)`);
    // At most one owner per account, whatever races; "at least one" is kept by the services (ownership is transferred, never removed).
    await q.query(`CREATE UNIQUE INDEX users_one_owner_key ON users (account_id) WHERE is_owner`);
    await q.query(`CREATE INDEX users_account_idx ON users (account_id)`);

    // Server-side sessions behind an opaque cookie: only the SHA-256 of the cookie's token is kept.
    await q.query(`
      CREATE TABLE user_sessions (
        id bigserial PRIMARY KEY,
        user_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        token_sha256 bytea NOT NULL CONSTRAINT user_sessions_token_sha256_check CHECK (octet_length(token_sha256) = 32),
        created_at timestamptz NOT NULL,
        last_seen_at timestamptz NOT NULL,
        ip text NOT NULL DEFAULT ''
      )`);
    await q.query(`CREATE UNIQUE INDEX user_sessions_token_key ON user_sessions (token_sha256)`);
    await q.query(`CREATE INDEX user_sessions_user_idx ON user_sessions (user_id)`);

    // Single-use links (invitation: set a first password; reset: choose a new one), stored as digests.
    await q.query(`
      CREATE TABLE user_tokens (
        id bigserial PRIMARY KEY,
        user_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        purpose text NOT NULL CONSTRAINT user_tokens_purpose_check CHECK (purpose IN ('invitation', 'password_reset')),
        token_sha256 bytea NOT NULL CONSTRAINT user_tokens_token_sha256_check CHECK (octet_length(token_sha256) = 32),
        created_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL,
        used_at timestamptz
      )`);
    await q.query(`CREATE UNIQUE INDEX user_tokens_token_key ON user_tokens (token_sha256)`);
    await q.query(`CREATE INDEX user_tokens_user_idx ON user_tokens (user_id, created_at)`);

    // Failed sign-ins by email and by client address (digests), counted over a sliding window by every instance.
    await q.query(`
      CREATE TABLE sign_in_failures (
        id bigserial PRIMARY KEY,
        scope text NOT NULL CONSTRAINT sign_in_failures_scope_check CHECK (scope IN ('email', 'ip')),
        subject bytea NOT NULL,
        failed_at timestamptz NOT NULL
      )`);
    await q.query(`CREATE INDEX sign_in_failures_subject_idx ON sign_in_failures (scope, subject, failed_at)`);

    // Every state-changing action in the dashboard (and the operator's user commands). No foreign key to
    // users: entries outlive the people they name, whose email is kept in actor.
    await q.query(`
      CREATE TABLE audit_log (
        id bigserial PRIMARY KEY,
        account_id integer NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        user_id integer,
        actor text NOT NULL,
        action text NOT NULL,
        detail text NOT NULL DEFAULT '',
        ip text NOT NULL DEFAULT '',
        created_at timestamptz NOT NULL
      )`);
    await q.query(`CREATE INDEX audit_log_account_idx ON audit_log (account_id, id DESC)`);

    // When each API key last authenticated, written at most once a minute per key.
    await q.query(`ALTER TABLE api_keys ADD COLUMN last_used_at timestamptz`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE api_keys DROP COLUMN last_used_at`);
    await q.query(`DROP TABLE audit_log`);
    await q.query(`DROP TABLE sign_in_failures`);
    await q.query(`DROP TABLE user_tokens`);
    await q.query(`DROP TABLE user_sessions`);
    await q.query(`DROP TABLE users`);
  }
}
