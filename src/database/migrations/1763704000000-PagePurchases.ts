import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Purchases made without an API key carry the key of the request that made them (src/purchases/
 * account-purchases.service.ts): `page:<the Billing form's own key>`, so a double-clicked or retried form
 * makes one purchase and one charge. Unique per account.
 */
export class PagePurchases1763704000000 implements MigrationInterface {
  name = 'PagePurchases1763704000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE purchases ADD COLUMN request_key text`);
    await q.query(`CREATE UNIQUE INDEX purchases_request_key ON purchases (account_id, request_key) WHERE request_key IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX purchases_request_key`);
    await q.query(`ALTER TABLE purchases DROP COLUMN request_key`);
  }
}
