import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A message's account is its send's account, and the schema now says so: one foreign key
 * (send_id, account_id) → sends (id, account_id) replaces the two separate ones (→ sends, → accounts).
 * Stronger (a message can no longer name another account than its send's) and cheaper: PostgreSQL checks
 * a foreign key row by row, so accepting a campaign ran two checks per message, now one (about 10 µs of
 * PostgreSQL's CPU per message in a 10000-message insert; docs/performance.md). Deleting an account still
 * removes its messages: accounts → sends → messages cascade.
 */
export class MessageSendAccount1763702400000 implements MigrationInterface {
  name = 'MessageSendAccount1763702400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE UNIQUE INDEX sends_id_account_key ON sends (id, account_id)`);
    // Added unchecked, then validated: validation reads every message but lets writes go on meanwhile.
    await q.query(`ALTER TABLE messages ADD CONSTRAINT messages_send_account_fkey FOREIGN KEY (send_id, account_id) REFERENCES sends (id, account_id) ON DELETE CASCADE NOT VALID`);
    await q.query(`ALTER TABLE messages VALIDATE CONSTRAINT messages_send_account_fkey`);
    await q.query(`ALTER TABLE messages DROP CONSTRAINT messages_send_id_fkey, DROP CONSTRAINT messages_account_id_fkey`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE messages ADD CONSTRAINT messages_account_id_fkey FOREIGN KEY (account_id) REFERENCES accounts (id) ON DELETE CASCADE,
         ADD CONSTRAINT messages_send_id_fkey FOREIGN KEY (send_id) REFERENCES sends (id) ON DELETE CASCADE`,
    );
    await q.query(`ALTER TABLE messages DROP CONSTRAINT messages_send_account_fkey`);
    await q.query(`DROP INDEX sends_id_account_key`);
  }
}
