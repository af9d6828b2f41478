import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Three row writes per single-part message (accept, submission, receipt) instead of five
 * (docs/performance.md, "Three writes").
 * - A claim writes no message row. Each send keeps a watermark: the last of its messages, in
 *   (dispatch_at, seq) order, that a dispatcher has taken (`claimed_through_*`), and its last message
 *   (`last_*`); a claim moves the watermark and writes one `dispatch_batches` row holding the range it
 *   took, so the sweeper can hand an abandoned range to the next claimer (`released_at`). A message is
 *   unclaimed while it lies after its send's watermark; cancels check that under the send row's lock.
 * - After it is accepted, a message's row is never written on the way to the carrier and back: what
 *   changes during dispatch (the submission, the receipt) is its parts' (`message_parts`, narrow, two
 *   indexes), and its status is its row's until a part is recorded (pending, scheduled, cancelled), then
 *   its parts' (sent, delivered, failed); a part carries its message's account, so a receipt and its
 *   webhook check need not read the message. So `messages` loses `claimed_by` and `dispatched_at` and the
 *   indexes the claim needed (due, send-due, claimed-by, send), and gets the send's dispatch order
 *   (send_id, dispatch_at, seq), which also serves every per-send lookup; its pages are filled (no update
 *   expected), the parts' are half filled, so a receipt's update of its part stays on its page (HOT).
 * One transaction, as every migration here: run it while no dispatcher is running. Claims in flight
 * (claimed, nothing recorded) go back to waiting, as the sweeper would have taken them back.
 */
const PART_COLUMNS = [
  'message_id',
  'part_number',
  'account_id',
  'total_parts',
  'smsc_id',
  'status',
  'error',
  'submitted_at',
  'receipt_at',
  'receipt_stat',
  'receipt_err',
  'receipt_due_at',
];

export class ClaimWatermark1763702600000 implements MigrationInterface {
  name = 'ClaimWatermark1763702600000';

  async up(q: QueryRunner): Promise<void> {
    // Only claims of batches still listed (as the sweeper would take back): a sent message with no part
    // outside any batch (older than parts) stays sent.
    await q.query(`
      UPDATE messages m SET status = 'pending'
       WHERE m.status = 'sent' AND m.claimed_by IN (SELECT batch_id FROM dispatch_batches)
         AND NOT EXISTS (SELECT 1 FROM message_parts p WHERE p.message_id = m.id)`);
    await q.query(`ALTER TABLE messages DROP COLUMN claimed_by, DROP COLUMN dispatched_at`);
    await q.query(`DROP INDEX messages_send_idx`);
    await q.query(`CREATE INDEX messages_send_order_idx ON messages (send_id, dispatch_at, seq)`);
    await q.query(`ALTER TABLE messages SET (fillfactor = 100)`);
    await q.query(`ALTER TABLE message_parts SET (fillfactor = 50)`);
    await q.query(`ALTER TABLE message_parts ADD COLUMN account_id integer`);
    await q.query(`UPDATE message_parts p SET account_id = m.account_id FROM messages m WHERE m.id = p.message_id`);
    await q.query(`ALTER TABLE message_parts ALTER COLUMN account_id SET NOT NULL`);
    // Every read of the parts is by key, so the planner needs their count, not their distributions: a
    // small sample makes the ANALYZE a growing table needs (TableStatistics) about six times cheaper.
    await q.query(`ALTER TABLE message_parts ${PART_COLUMNS.map((c) => `ALTER COLUMN ${c} SET STATISTICS 10`).join(', ')}`);

    await q.query(
      `ALTER TABLE sends ADD COLUMN claimed_through_at timestamptz NOT NULL DEFAULT '-infinity', ADD COLUMN claimed_through_seq bigint NOT NULL DEFAULT 0,
         ADD COLUMN last_at timestamptz, ADD COLUMN last_seq bigint`,
    );
    await q.query(`
      UPDATE sends s SET (last_at, last_seq) = (
        SELECT m.dispatch_at, m.seq FROM messages m WHERE m.send_id = s.id ORDER BY m.dispatch_at DESC, m.seq DESC LIMIT 1)`);
    // The watermark of a send sits just before its first waiting message, or on its last when none waits.
    await q.query(`
      UPDATE sends s SET claimed_through_at = s.last_at, claimed_through_seq = s.last_seq
       WHERE s.last_seq IS NOT NULL AND NOT EXISTS (SELECT 1 FROM messages m WHERE m.send_id = s.id AND m.status IN ('pending', 'scheduled'))`);
    await q.query(`
      WITH first_waiting AS (
        SELECT DISTINCT ON (send_id) send_id, dispatch_at, seq FROM messages WHERE status IN ('pending', 'scheduled') ORDER BY send_id, dispatch_at, seq
      )
      UPDATE sends s SET (claimed_through_at, claimed_through_seq) = (
        SELECT coalesce(before.dispatch_at, '-infinity'), coalesce(before.seq, 0) FROM (SELECT 1) one LEFT JOIN LATERAL (
          SELECT m.dispatch_at, m.seq FROM messages m WHERE m.send_id = s.id AND (m.dispatch_at, m.seq) < (w.dispatch_at, w.seq)
           ORDER BY m.dispatch_at DESC, m.seq DESC LIMIT 1) before ON true)
        FROM first_waiting w WHERE w.send_id = s.id`);
    await q.query(`CREATE INDEX sends_undispatched_idx ON sends (id) WHERE last_seq IS NOT NULL AND (claimed_through_at, claimed_through_seq) < (last_at, last_seq)`);

    // Their claims went back to waiting above.
    await q.query(`DELETE FROM dispatch_batches`);
    await q.query(
      `ALTER TABLE dispatch_batches ADD COLUMN send_id bigint NOT NULL, ADD COLUMN after_at timestamptz NOT NULL, ADD COLUMN after_seq bigint NOT NULL,
         ADD COLUMN through_at timestamptz NOT NULL, ADD COLUMN through_seq bigint NOT NULL, ADD COLUMN released_at timestamptz`,
    );
    await q.query(`ALTER TABLE dispatch_batches ADD CONSTRAINT dispatch_batches_send_id_fkey FOREIGN KEY (send_id) REFERENCES sends (id) ON DELETE CASCADE`);
    await q.query(`CREATE INDEX dispatch_batches_released_idx ON dispatch_batches (send_id) WHERE released_at IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX dispatch_batches_released_idx`);
    await q.query(`DELETE FROM dispatch_batches`);
    await q.query(`ALTER TABLE dispatch_batches DROP CONSTRAINT dispatch_batches_send_id_fkey`);
    await q.query(
      `ALTER TABLE dispatch_batches DROP COLUMN send_id, DROP COLUMN after_at, DROP COLUMN after_seq, DROP COLUMN through_at, DROP COLUMN through_seq, DROP COLUMN released_at`,
    );
    await q.query(`DROP INDEX sends_undispatched_idx`);
    await q.query(`ALTER TABLE sends DROP COLUMN claimed_through_at, DROP COLUMN claimed_through_seq, DROP COLUMN last_at, DROP COLUMN last_seq`);

    // The message rows take their parts' status back (the layout before kept it on the row).
    await q.query(`
      UPDATE messages m SET status = CASE WHEN p.failed THEN 'failed' WHEN p.delivered THEN 'delivered' ELSE 'sent' END
        FROM (SELECT message_id, bool_or(status = 'failed') AS failed, bool_and(status = 'delivered') AND count(*) = max(total_parts) AS delivered
                FROM message_parts GROUP BY message_id) p
       WHERE p.message_id = m.id`);
    await q.query(
      `ALTER TABLE message_parts ${PART_COLUMNS.filter((c) => c !== 'account_id')
        .map((c) => `ALTER COLUMN ${c} SET STATISTICS -1`)
        .join(', ')}`,
    );
    await q.query(`ALTER TABLE message_parts DROP COLUMN account_id`);
    await q.query(`ALTER TABLE message_parts SET (fillfactor = 80)`);
    await q.query(`ALTER TABLE messages SET (fillfactor = 70)`);
    await q.query(`DROP INDEX messages_send_order_idx`);
    await q.query(`ALTER TABLE messages ADD COLUMN dispatched_at timestamptz, ADD COLUMN claimed_by uuid`);
    await q.query(`
      UPDATE messages m SET dispatched_at = coalesce((SELECT min(p.submitted_at) FROM message_parts p WHERE p.message_id = m.id), m.updated_at)
       WHERE m.status NOT IN ('pending', 'scheduled')`);
    await q.query(`CREATE INDEX messages_send_idx ON messages (send_id)`);
    await q.query(`CREATE INDEX messages_due_idx ON messages (dispatch_at) WHERE dispatched_at IS NULL`);
    await q.query(`CREATE INDEX messages_send_due_idx ON messages (send_id, dispatch_at) WHERE dispatched_at IS NULL`);
    await q.query(`CREATE INDEX messages_claimed_by_idx ON messages (claimed_by) WHERE claimed_by IS NOT NULL`);
  }
}
