import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Auto-recharge and the low-balance warning (src/recharge). The two thresholds live on the account row
 * (hundredths of a credit; null: off) so the debit that moves the balance returns them with it and
 * notices a crossing without another statement. A crossing is recorded in the debit's transaction
 * (balance_crossings) and handled once by a job keyed on it, with a periodic sweep as the backstop.
 */
export class AutoRecharge1763704600000 implements MigrationInterface {
  name = 'AutoRecharge1763704600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE accounts ADD COLUMN recharge_below bigint, ADD COLUMN warn_below bigint`);
    await q.query(`
      CREATE TABLE auto_recharges (
        account_id integer PRIMARY KEY CONSTRAINT auto_recharges_account_id_fkey REFERENCES accounts(id) ON DELETE CASCADE,
        enabled boolean NOT NULL,
        below_credits integer NOT NULL CONSTRAINT auto_recharges_below_check CHECK (below_credits BETWEEN 1 AND 10000000),
        buy_credits integer NOT NULL CONSTRAINT auto_recharges_buy_check CHECK (buy_credits BETWEEN 500 AND 10000000),
        card_id integer NOT NULL CONSTRAINT auto_recharges_card_id_fkey REFERENCES payment_cards(id),
        max_per_day integer NOT NULL CONSTRAINT auto_recharges_max_per_day_check CHECK (max_per_day BETWEEN 1 AND 10),
        stopped_reason text NOT NULL DEFAULT '',
        updated_at timestamptz NOT NULL
      )`);
    await q.query(`
      CREATE TABLE balance_crossings (
        id bigserial PRIMARY KEY,
        account_id integer NOT NULL CONSTRAINT balance_crossings_account_id_fkey REFERENCES accounts(id) ON DELETE CASCADE,
        kind text NOT NULL CONSTRAINT balance_crossings_kind_check CHECK (kind IN ('recharge', 'warning')),
        threshold bigint NOT NULL,
        balance_after bigint NOT NULL,
        crossed_at timestamptz NOT NULL,
        handled_at timestamptz,
        outcome text NOT NULL DEFAULT ''
      )`);
    await q.query(`CREATE INDEX balance_crossings_unhandled_idx ON balance_crossings (crossed_at) WHERE handled_at IS NULL`);
    await q.query(`CREATE INDEX balance_crossings_account_idx ON balance_crossings (account_id, crossed_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE balance_crossings`);
    await q.query(`DROP TABLE auto_recharges`);
    await q.query(`ALTER TABLE accounts DROP COLUMN warn_below, DROP COLUMN recharge_below`);
  }
}
