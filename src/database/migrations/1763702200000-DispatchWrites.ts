import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Fewer, cheaper row writes per message on the dispatch path (docs/performance.md).
 * - A receipt is written straight onto the part it settles (its stat and err beside the part's status
 *   and receipt time); `delivery_receipts` only keeps receipts that arrive before their part is recorded.
 * - The simulated-receipt index no longer names `status` (the applier clears `receipt_due_at` instead),
 *   so a receipt's update of its part touches no indexed column and can be a HOT update; the parts table
 *   leaves room on each page for that (fillfactor).
 * - A claim is the message's one status change before its receipt: it reads `sent` from the claim on
 *   (recording a successful submission writes only the part). Claims not yet recorded are found through
 *   their batch (`dispatch_batches`, a row per batch, and `messages.claimed_by`), so the claimed index
 *   no longer names `status`; the due indexes name only `dispatched_at` (a cancel sets it too), so the
 *   settling update (sent → delivered) touches no indexed column and can be HOT.
 */
export class DispatchWrites1763702200000 implements MigrationInterface {
  name = 'DispatchWrites1763702200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE message_parts ADD COLUMN receipt_stat text, ADD COLUMN receipt_err text`);
    await q.query(`
      UPDATE message_parts p SET receipt_stat = r.stat, receipt_err = r.err
        FROM delivery_receipts r WHERE r.smsc_id = p.smsc_id AND r.applied_at IS NOT NULL`);
    await q.query(`UPDATE message_parts SET receipt_due_at = NULL WHERE status <> 'submitted' AND receipt_due_at IS NOT NULL`);
    await q.query(`DROP INDEX message_parts_receipt_due_idx`);
    await q.query(`CREATE INDEX message_parts_receipt_due_idx ON message_parts (receipt_due_at) WHERE receipt_due_at IS NOT NULL`);
    await q.query(`ALTER TABLE message_parts SET (fillfactor = 80)`);

    await q.query(`CREATE TABLE dispatch_batches (batch_id uuid PRIMARY KEY, claimed_at timestamptz NOT NULL DEFAULT now())`);
    // Claims in flight now: their batches are listed, and they read as the new claims do.
    await q.query(`
      INSERT INTO dispatch_batches (batch_id)
      SELECT DISTINCT claimed_by FROM messages WHERE status = 'pending' AND dispatched_at IS NOT NULL AND claimed_by IS NOT NULL`);
    await q.query(`UPDATE messages SET dispatched_at = NULL WHERE status = 'pending' AND dispatched_at IS NOT NULL AND claimed_by IS NULL`);
    await q.query(`UPDATE messages SET status = 'sent' WHERE status = 'pending' AND dispatched_at IS NOT NULL`);
    await q.query(`UPDATE messages SET dispatched_at = updated_at WHERE status = 'cancelled' AND dispatched_at IS NULL`);
    await q.query(`DROP INDEX messages_due_idx`);
    await q.query(`DROP INDEX messages_send_due_idx`);
    await q.query(`DROP INDEX messages_claimed_idx`);
    await q.query(`CREATE INDEX messages_due_idx ON messages (dispatch_at) WHERE dispatched_at IS NULL`);
    await q.query(`CREATE INDEX messages_send_due_idx ON messages (send_id, dispatch_at) WHERE dispatched_at IS NULL`);
    await q.query(`CREATE INDEX messages_claimed_by_idx ON messages (claimed_by) WHERE claimed_by IS NOT NULL`);
    await q.query(`ALTER TABLE messages SET (fillfactor = 70)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE messages RESET (fillfactor)`);
    await q.query(`DROP INDEX messages_claimed_by_idx`);
    await q.query(`DROP INDEX messages_send_due_idx`);
    await q.query(`DROP INDEX messages_due_idx`);
    await q.query(`
      UPDATE messages m SET status = 'pending' FROM dispatch_batches b
       WHERE m.claimed_by = b.batch_id AND m.status = 'sent' AND NOT EXISTS (SELECT 1 FROM message_parts p WHERE p.message_id = m.id)`);
    await q.query(`UPDATE messages SET dispatched_at = NULL WHERE status = 'cancelled'`);
    await q.query(`CREATE INDEX messages_due_idx ON messages (dispatch_at) WHERE status IN ('pending', 'scheduled') AND dispatched_at IS NULL`);
    await q.query(`CREATE INDEX messages_send_due_idx ON messages (send_id, dispatch_at) WHERE status IN ('pending', 'scheduled') AND dispatched_at IS NULL`);
    await q.query(`CREATE INDEX messages_claimed_idx ON messages (dispatched_at) WHERE status = 'pending' AND dispatched_at IS NOT NULL`);
    await q.query(`DROP TABLE dispatch_batches`);
    await q.query(`ALTER TABLE message_parts RESET (fillfactor)`);
    await q.query(`DROP INDEX message_parts_receipt_due_idx`);
    await q.query(`CREATE INDEX message_parts_receipt_due_idx ON message_parts (receipt_due_at) WHERE status = 'submitted' AND receipt_due_at IS NOT NULL`);
    await q.query(`
      INSERT INTO delivery_receipts (smsc_id, state, stat, err, done_at, received_at, applied_at)
      SELECT smsc_id, status, receipt_stat, coalesce(receipt_err, ''), receipt_at, receipt_at, receipt_at FROM message_parts
       WHERE receipt_stat IS NOT NULL AND status IN ('delivered', 'failed')
      ON CONFLICT (smsc_id) DO NOTHING`);
    await q.query(`ALTER TABLE message_parts DROP COLUMN receipt_stat, DROP COLUMN receipt_err`);
  }
}
