import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The SMSC's own answer to a part it refused for good: its submit_sm_resp command_status (e.g. 11,
 * ESME_RINVDSTADR), shown as `carrier_error` on the message lookup and the status webhook. Null for every
 * other part (accepted, or failed by a receipt, whose stat and err are receipt_stat and receipt_err).
 * Adding a nullable column without a default rewrites nothing.
 */
export class CarrierErrors1763705900000 implements MigrationInterface {
  name = 'CarrierErrors1763705900000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE message_parts ADD COLUMN error_code integer`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE message_parts DROP COLUMN error_code`);
  }
}
