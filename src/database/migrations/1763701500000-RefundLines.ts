import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Which messages each refund paid back. A refund ledger row covers every message one cancellation took
 * (a whole send, say); its lines name them, so `ledger:verify` can prove every refund matches cancelled
 * messages, and the primary key makes refunding one message twice impossible.
 */
export class RefundLines1763701500000 implements MigrationInterface {
  name = 'RefundLines1763701500000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE credit_refund_lines (
        message_id uuid PRIMARY KEY REFERENCES messages(id) ON DELETE CASCADE,
        ledger_entry_id bigint NOT NULL REFERENCES credit_ledger(id) ON DELETE CASCADE,
        amount bigint NOT NULL CHECK (amount > 0)
      )`);
    await q.query(`CREATE INDEX credit_refund_lines_ledger_entry_idx ON credit_refund_lines (ledger_entry_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE credit_refund_lines`);
  }
}
