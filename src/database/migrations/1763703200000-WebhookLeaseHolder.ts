import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Webhook events name the deliverer holding their lease (leased_by), so only that deliverer renews the
 * lease and records the attempt's outcome; and an event's attempt numbers are unique. Attempts recorded
 * twice before this (a lease that ran out while its attempt was still alive) keep their first row.
 */
export class WebhookLeaseHolder1763703200000 implements MigrationInterface {
  name = 'WebhookLeaseHolder1763703200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE webhook_events ADD COLUMN leased_by uuid`);
    await q.query(`DELETE FROM webhook_attempts a USING webhook_attempts b WHERE a.event_id = b.event_id AND a.attempt = b.attempt AND a.id > b.id`);
    await q.query(`DROP INDEX webhook_attempts_event_idx`);
    await q.query(`CREATE UNIQUE INDEX webhook_attempts_event_attempt_key ON webhook_attempts (event_id, attempt)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX webhook_attempts_event_attempt_key`);
    await q.query(`CREATE INDEX webhook_attempts_event_idx ON webhook_attempts (event_id)`);
    await q.query(`ALTER TABLE webhook_events DROP COLUMN leased_by`);
  }
}
