import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Who started a purchase made without an API key (a person on the Billing page, or auto-recharge), as the
 * audit log names them: the purchase's audit entry is written when its outcome is recorded (bought,
 * declined, held, refunded), which may be in another process (the reconciler) long after the request.
 * Null `actor`: a purchase by API key, which the audit log does not list (its invoice names the key).
 */
export class PurchaseActors1763708900000 implements MigrationInterface {
  name = 'PurchaseActors1763708900000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE purchases ADD COLUMN actor text, ADD COLUMN actor_user_id integer, ADD COLUMN actor_ip text NOT NULL DEFAULT ''`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE purchases DROP COLUMN actor_ip, DROP COLUMN actor_user_id, DROP COLUMN actor`);
  }
}
