import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 33: the owner's switch requiring two-factor sign-in of every user (read with the session on every
 * dashboard request), and the sending brake: per account, its messages in the current and previous clock
 * hour, its baseline (busiest recent hour) and whether sending is paused. A send updates its brake row in
 * one statement in its own transaction, so concurrent sends are counted one after another.
 */
export class AccountGuards1763705500000 implements MigrationInterface {
  name = 'AccountGuards1763705500000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE accounts ADD COLUMN require_two_factor boolean NOT NULL DEFAULT false`);
    await q.query(`
      CREATE TABLE sending_brakes (
        account_id integer NOT NULL,
        hour_start timestamptz NOT NULL,
        hour_count integer NOT NULL DEFAULT 0,
        previous_count integer NOT NULL DEFAULT 0,
        baseline double precision NOT NULL DEFAULT 0,
        paused_at timestamptz NULL,
        paused_volume integer NULL,
        paused_limit integer NULL,
        CONSTRAINT sending_brakes_pkey PRIMARY KEY (account_id),
        CONSTRAINT sending_brakes_account_id_fkey FOREIGN KEY (account_id) REFERENCES accounts(id) ON DELETE CASCADE
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE sending_brakes`);
    await q.query(`ALTER TABLE accounts DROP COLUMN require_two_factor`);
  }
}
