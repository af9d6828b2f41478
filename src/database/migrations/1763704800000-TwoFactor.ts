import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Two-factor sign-in (issue 33): a user's TOTP secret (AES-GCM sealed with TWO_FACTOR_KEY: a code is
 * checked against the secret itself, so it cannot be hashed), when it was turned on, the last step used
 * (no code is accepted twice), and the SHA-256 digests of the unused recovery codes.
 */
export class TwoFactor1763704800000 implements MigrationInterface {
  name = 'TwoFactor1763704800000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE users ADD COLUMN totp_secret bytea NULL`);
    await q.query(`ALTER TABLE users ADD COLUMN totp_enabled_at timestamptz NULL`);
    await q.query(`ALTER TABLE users ADD COLUMN totp_last_step bigint NULL`);
    await q.query(`ALTER TABLE users ADD COLUMN recovery_codes bytea[] NOT NULL DEFAULT '{}'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE users DROP COLUMN recovery_codes`);
    await q.query(`ALTER TABLE users DROP COLUMN totp_last_step`);
    await q.query(`ALTER TABLE users DROP COLUMN totp_enabled_at`);
    await q.query(`ALTER TABLE users DROP COLUMN totp_secret`);
  }
}
