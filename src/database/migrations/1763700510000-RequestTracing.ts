import { MigrationInterface, QueryRunner } from 'typeorm';

export class RequestTracing1763700510000 implements MigrationInterface {
  name = 'RequestTracing1763700510000';

  async up(q: QueryRunner): Promise<void> {
    // The X-Request-Id of the request that created the send: dispatch runs later, in another process,
    // possibly from the sweeper rather than the request's own job, so the id lives with the send itself.
    await q.query(`ALTER TABLE sends ADD COLUMN request_id text`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE sends DROP COLUMN request_id`);
  }
}
