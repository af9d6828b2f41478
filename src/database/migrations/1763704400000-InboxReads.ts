import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The dashboard inbox's unread state: per account and mobile (one thread), the last inbound message
 * (by its `seq`) someone of the account has read. Replies after it are unread.
 */
export class InboxReads1763704400000 implements MigrationInterface {
  name = 'InboxReads1763704400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE inbox_reads (
        account_id integer NOT NULL,
        mobile text NOT NULL,
        read_seq bigint NOT NULL,
        read_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT inbox_reads_pkey PRIMARY KEY (account_id, mobile),
        CONSTRAINT inbox_reads_account_id_fkey FOREIGN KEY (account_id) REFERENCES accounts(id) ON DELETE CASCADE
      )`);
    // Threads are grouped by the replying mobile within an account.
    await q.query(`CREATE INDEX inbound_messages_account_from_idx ON inbound_messages (account_id, from_number, seq)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX inbound_messages_account_from_idx`);
    await q.query(`DROP TABLE inbox_reads`);
  }
}
