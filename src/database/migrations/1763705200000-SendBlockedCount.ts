import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * How many of a send's recipients were blocked when it was accepted (unsubscribed numbers: the API's
 * `blocked` entries, a list send's total_blocked_unsubscribed). They never become messages, so the
 * count is kept on the send, written once with it, for the campaign pages. Sends made before this
 * migration read 0: what they blocked was answered to their caller and not kept.
 */
export class SendBlockedCount1763705200000 implements MigrationInterface {
  name = 'SendBlockedCount1763705200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE sends ADD COLUMN blocked_count integer NOT NULL DEFAULT 0`);
    await q.query(`ALTER TABLE sends ADD CONSTRAINT sends_blocked_count_check CHECK (blocked_count >= 0)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE sends DROP CONSTRAINT sends_blocked_count_check`);
    await q.query(`ALTER TABLE sends DROP COLUMN blocked_count`);
  }
}
