import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Who holds a claim. A claim names the batch that took it (`messages.claimed_by`); every dispatcher
 * process keeps one lease row fresh, listing the batches it is working on. The sweeper takes a claim
 * back only when no fresh lease lists its batch: the dispatcher died, or the batch ended without
 * recording the message. A live dispatcher's claims are never taken however slow the machine, so the
 * claim timeout can be short without sending anything twice.
 */
export class DispatcherLeases1763701510000 implements MigrationInterface {
  name = 'DispatcherLeases1763701510000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE messages ADD COLUMN claimed_by uuid`);
    await q.query(`
      CREATE TABLE dispatcher_leases (
        dispatcher_id uuid PRIMARY KEY,
        active_batches uuid[] NOT NULL DEFAULT '{}',
        started_at timestamptz NOT NULL DEFAULT now(),
        heartbeat_at timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE dispatcher_leases`);
    await q.query(`ALTER TABLE messages DROP COLUMN claimed_by`);
  }
}
