import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Receipts per carrier, and an end to waiting for them.
 * - An SMSC's message ids are unique only on that SMSC, so a submitted part records the carrier that took
 *   it (`carrier_id`: 0 the SMPP_* environment carrier, -1 the simulator of test accounts, 1 and up rows
 *   of the carriers table; no foreign key, a removed carrier's history keeps its id) and receipts are
 *   matched on (carrier_id, smsc_id); receipts stored before their part are keyed the same way. Parts
 *   recorded before this migration were the environment carrier's, or the simulator's ('sim-' ids).
 * - A part whose carrier never reports a receipt stops waiting for one a configured time after its
 *   submission: its status becomes `unconfirmed` (no webhook; its message reads `sent`). The closing
 *   walks live parts by submission time from `receipt_wait_watermark` on, so each part is looked at about
 *   once; the index does not name `status`, so a receipt's update of its part stays HOT.
 */
export class ReceiptsPerCarrier1763706000000 implements MigrationInterface {
  name = 'ReceiptsPerCarrier1763706000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE message_parts ADD COLUMN carrier_id smallint NOT NULL DEFAULT 0`);
    await q.query(`UPDATE message_parts SET carrier_id = -1 WHERE smsc_id LIKE 'sim-%'`);
    await q.query(`ALTER TABLE message_parts ALTER COLUMN carrier_id DROP DEFAULT`);
    await q.query(`DROP INDEX message_parts_smsc_idx`);
    await q.query(`CREATE INDEX message_parts_smsc_idx ON message_parts (carrier_id, smsc_id) WHERE smsc_id IS NOT NULL`);
    await q.query(`CREATE INDEX message_parts_receipt_wait_idx ON message_parts (submitted_at) WHERE carrier_id >= 0`);
    await q.query(`ALTER TABLE message_parts DROP CONSTRAINT message_parts_status_check`);
    await q.query(`ALTER TABLE message_parts ADD CONSTRAINT message_parts_status_check CHECK (status IN ('submitted', 'delivered', 'failed', 'unconfirmed'))`);

    await q.query(`ALTER TABLE delivery_receipts ADD COLUMN carrier_id smallint NOT NULL DEFAULT 0`);
    await q.query(`ALTER TABLE delivery_receipts ALTER COLUMN carrier_id DROP DEFAULT`);
    await q.query(`ALTER TABLE delivery_receipts DROP CONSTRAINT delivery_receipts_pkey`);
    await q.query(`ALTER TABLE delivery_receipts ADD CONSTRAINT delivery_receipts_pkey PRIMARY KEY (carrier_id, smsc_id)`);

    // One row: live parts submitted at or before closed_through have had their wait looked at.
    await q.query(`
      CREATE TABLE receipt_wait_watermark (
        id smallint PRIMARY KEY CHECK (id = 1),
        closed_through timestamptz NOT NULL
      )`);
    await q.query(`INSERT INTO receipt_wait_watermark (id, closed_through) VALUES (1, '-infinity')`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE receipt_wait_watermark`);
    await q.query(`ALTER TABLE delivery_receipts DROP CONSTRAINT delivery_receipts_pkey`);
    await q.query(`DELETE FROM delivery_receipts a USING delivery_receipts b WHERE a.smsc_id = b.smsc_id AND a.carrier_id > b.carrier_id`);
    await q.query(`ALTER TABLE delivery_receipts ADD CONSTRAINT delivery_receipts_pkey PRIMARY KEY (smsc_id)`);
    await q.query(`ALTER TABLE delivery_receipts DROP COLUMN carrier_id`);
    await q.query(`UPDATE message_parts SET status = 'submitted' WHERE status = 'unconfirmed'`);
    await q.query(`ALTER TABLE message_parts DROP CONSTRAINT message_parts_status_check`);
    await q.query(`ALTER TABLE message_parts ADD CONSTRAINT message_parts_status_check CHECK (status IN ('submitted', 'delivered', 'failed'))`);
    await q.query(`DROP INDEX message_parts_receipt_wait_idx`);
    await q.query(`DROP INDEX message_parts_smsc_idx`);
    await q.query(`CREATE INDEX message_parts_smsc_idx ON message_parts (smsc_id) WHERE smsc_id IS NOT NULL`);
    await q.query(`ALTER TABLE message_parts DROP COLUMN carrier_id`);
  }
}
