import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Sign-in failures are also counted per (email, client address) pair: tries wait per pair, so failures
 * from elsewhere never lock the real user out (issue 33). Per-email rows remain, to tell the user of a burst.
 */
export class SignInPairs1763704300000 implements MigrationInterface {
  name = 'SignInPairs1763704300000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE sign_in_failures DROP CONSTRAINT sign_in_failures_scope_check`);
    await q.query(`ALTER TABLE sign_in_failures ADD CONSTRAINT sign_in_failures_scope_check CHECK (scope IN ('email', 'ip', 'pair'))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM sign_in_failures WHERE scope = 'pair'`);
    await q.query(`ALTER TABLE sign_in_failures DROP CONSTRAINT sign_in_failures_scope_check`);
    await q.query(`ALTER TABLE sign_in_failures ADD CONSTRAINT sign_in_failures_scope_check CHECK (scope IN ('email', 'ip'))`);
  }
}
