import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A message's account is its send's account, and the schema now says so: one foreign key
 * (account_id, send_id) → sends (account_id, id) replaces the two separate ones (→ sends, → accounts);
 * the sends' index on (account_id, id), which lists an account's sends, becomes unique to serve it.
 * Stronger (a message can no longer name another account than its send's) and cheaper: PostgreSQL checks
 * a foreign key row by row, so accepting a campaign ran two checks per message, now one (about 10 µs of
 * PostgreSQL's CPU per message in a 10000-message insert; docs/performance.md). Deleting an account still
 * removes its messages: accounts → sends → messages cascade.
 */
export class MessageSendAccount1763702400000 implements MigrationInterface {
  name = 'MessageSendAccount1763702400000';

  async up(q: QueryRunner): Promise<void> {
    // One transaction, as every migration here: sends and messages take no writes until it commits, and
    // adding the key reads every message to check it. On a large table, run it while sending is quiet.
    // The index is unique already (id is the primary key); declaring it lets the key refer to it.
    await q.query(`DROP INDEX sends_account_idx`);
    await q.query(`CREATE UNIQUE INDEX sends_account_idx ON sends (account_id, id)`);
    await q.query(`ALTER TABLE messages ADD CONSTRAINT messages_send_account_fkey FOREIGN KEY (account_id, send_id) REFERENCES sends (account_id, id) ON DELETE CASCADE`);
    await q.query(`ALTER TABLE messages DROP CONSTRAINT messages_send_id_fkey, DROP CONSTRAINT messages_account_id_fkey`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE messages ADD CONSTRAINT messages_account_id_fkey FOREIGN KEY (account_id) REFERENCES accounts (id) ON DELETE CASCADE,
         ADD CONSTRAINT messages_send_id_fkey FOREIGN KEY (send_id) REFERENCES sends (id) ON DELETE CASCADE`,
    );
    await q.query(`ALTER TABLE messages DROP CONSTRAINT messages_send_account_fkey`);
    await q.query(`DROP INDEX sends_account_idx`);
    await q.query(`CREATE INDEX sends_account_idx ON sends (account_id, id)`);
  }
}
