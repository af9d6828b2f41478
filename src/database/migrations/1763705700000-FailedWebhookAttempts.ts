import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Settings › Webhooks lists an account's failed attempts on their own: failures are rare, so a partial
 * index keeps that list one short range instead of a walk past every delivered attempt.
 */
export class FailedWebhookAttempts1763705700000 implements MigrationInterface {
  name = 'FailedWebhookAttempts1763705700000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX webhook_attempts_account_failed_idx ON webhook_attempts (account_id, id DESC) WHERE NOT delivered`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX webhook_attempts_account_failed_idx`);
  }
}
