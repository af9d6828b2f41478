import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Sign-ups waiting for their emailed link (src/signup): who asked, the scrypt hash of the password they
 * chose, the SHA-256 of the link's token, and the digest of the client address (the throttle counts
 * rows per address and per email over the last hour). A used row keeps the account it opened.
 */
export class SignUps1763703800000 implements MigrationInterface {
  name = 'SignUps1763703800000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE sign_ups (
        id bigserial PRIMARY KEY,
        email text NOT NULL CONSTRAINT sign_ups_email_check CHECK (email = lower(email) AND length(email) BETWEEN 3 AND 254),
        name text NOT NULL,
        business_name text NOT NULL,
        password_hash text NOT NULL,
        token_sha256 bytea NOT NULL CONSTRAINT sign_ups_token_sha256_check CHECK (octet_length(token_sha256) = 32),
        ip_sha256 bytea NOT NULL,
        created_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL,
        used_at timestamptz,
        account_id integer CONSTRAINT sign_ups_account_id_fkey REFERENCES accounts(id) ON DELETE SET NULL
      )`);
    await q.query(`CREATE UNIQUE INDEX sign_ups_token_key ON sign_ups (token_sha256)`);
    await q.query(`CREATE INDEX sign_ups_email_idx ON sign_ups (email, created_at)`);
    await q.query(`CREATE INDEX sign_ups_ip_idx ON sign_ups (ip_sha256, created_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE sign_ups`);
  }
}
