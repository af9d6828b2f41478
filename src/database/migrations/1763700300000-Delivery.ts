import { MigrationInterface, QueryRunner } from 'typeorm';

export class Delivery1763700300000 implements MigrationInterface {
  name = 'Delivery1763700300000';

  async up(q: QueryRunner): Promise<void> {
    // When a dispatcher claimed the message; NULL while it waits. Cancel only touches unclaimed scheduled rows.
    await q.query(`ALTER TABLE messages ADD COLUMN dispatched_at timestamptz`);
    await q.query(`DROP INDEX messages_due_idx`);
    await q.query(`CREATE INDEX messages_due_idx ON messages (dispatch_at) WHERE status IN ('pending', 'scheduled') AND dispatched_at IS NULL`);
    await q.query(`CREATE INDEX messages_send_due_idx ON messages (send_id, dispatch_at) WHERE status IN ('pending', 'scheduled') AND dispatched_at IS NULL`);
    // Claims whose dispatcher died before recording the outcome.
    await q.query(`CREATE INDEX messages_claimed_idx ON messages (dispatched_at) WHERE status = 'pending' AND dispatched_at IS NOT NULL`);
    // Inbound correlation: the most recent message from an account number to a mobile.
    await q.query(`CREATE INDEX messages_conversation_idx ON messages (sender, to_number, created_at DESC)`);

    await q.query(`
      CREATE TABLE message_parts (
        message_id uuid NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
        part_number smallint NOT NULL,
        total_parts smallint NOT NULL,
        smsc_id text,
        status text NOT NULL CHECK (status IN ('submitted', 'delivered', 'failed')),
        error text,
        submitted_at timestamptz NOT NULL DEFAULT now(),
        receipt_at timestamptz,
        -- simulated carrier (test accounts, development): when its receipt is due
        receipt_due_at timestamptz,
        PRIMARY KEY (message_id, part_number)
      )`);
    await q.query(`CREATE INDEX message_parts_smsc_idx ON message_parts (smsc_id) WHERE smsc_id IS NOT NULL`);
    await q.query(`CREATE INDEX message_parts_receipt_due_idx ON message_parts (receipt_due_at) WHERE status = 'submitted' AND receipt_due_at IS NOT NULL`);

    // Receipts are stored first and applied to parts after, so one that arrives before its
    // submit_sm_resp has been recorded is applied when the part appears.
    await q.query(`
      CREATE TABLE delivery_receipts (
        smsc_id text PRIMARY KEY,
        state text NOT NULL CHECK (state IN ('delivered', 'failed')),
        stat text NOT NULL,
        err text NOT NULL,
        done_at timestamptz NOT NULL,
        received_at timestamptz NOT NULL DEFAULT now(),
        applied_at timestamptz
      )`);
    await q.query(`CREATE INDEX delivery_receipts_unapplied_idx ON delivery_receipts (received_at) WHERE applied_at IS NULL`);

    await q.query(`
      CREATE TABLE inbound_messages (
        id uuid PRIMARY KEY,
        seq bigint GENERATED ALWAYS AS IDENTITY,
        account_id integer NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        from_number text NOT NULL,
        to_number text NOT NULL,
        body text NOT NULL,
        type text NOT NULL CHECK (type IN ('inbound', 'unsubscribe')),
        original_message_id uuid,
        original_custom_ref text,
        received_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX inbound_messages_account_idx ON inbound_messages (account_id, received_at DESC, seq DESC)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE inbound_messages`);
    await q.query(`DROP TABLE delivery_receipts`);
    await q.query(`DROP TABLE message_parts`);
    await q.query(`DROP INDEX messages_conversation_idx`);
    await q.query(`DROP INDEX messages_claimed_idx`);
    await q.query(`DROP INDEX messages_send_due_idx`);
    await q.query(`DROP INDEX messages_due_idx`);
    await q.query(`CREATE INDEX messages_due_idx ON messages (dispatch_at) WHERE status IN ('pending', 'scheduled')`);
    await q.query(`ALTER TABLE messages DROP COLUMN dispatched_at`);
  }
}
