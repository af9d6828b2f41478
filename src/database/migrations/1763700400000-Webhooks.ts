import { MigrationInterface, QueryRunner } from 'typeorm';

export class Webhooks1763700400000 implements MigrationInterface {
  name = 'Webhooks1763700400000';

  async up(q: QueryRunner): Promise<void> {
    // One inbound and one status URL per account ('' = off), shared by all its API keys.
    await q.query(`ALTER TABLE accounts ADD COLUMN webhook_inbound_url text NOT NULL DEFAULT ''`);
    await q.query(`ALTER TABLE accounts ADD COLUMN webhook_status_url text NOT NULL DEFAULT ''`);
    await q.query(`ALTER TABLE accounts ADD COLUMN webhook_secret text`);

    // An event's body is fixed when it is created; every attempt sends exactly these bytes.
    await q.query(`
      CREATE TABLE webhook_events (
        id bigserial PRIMARY KEY,
        account_id integer NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        kind text NOT NULL CHECK (kind IN ('status', 'inbound')),
        body text NOT NULL,
        state text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'delivered', 'failed', 'discarded')),
        attempts integer NOT NULL DEFAULT 0,
        next_attempt_at timestamptz NOT NULL DEFAULT now(),
        locked_until timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        finished_at timestamptz
      )`);
    await q.query(`CREATE INDEX webhook_events_due_idx ON webhook_events (next_attempt_at) WHERE state = 'pending'`);

    await q.query(`
      CREATE TABLE webhook_attempts (
        id bigserial PRIMARY KEY,
        event_id bigint NOT NULL REFERENCES webhook_events(id) ON DELETE CASCADE,
        account_id integer NOT NULL,
        kind text NOT NULL,
        url text NOT NULL,
        attempt integer NOT NULL,
        response_status integer,
        error text NOT NULL DEFAULT '',
        duration_ms integer NOT NULL,
        delivered boolean NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX webhook_attempts_account_idx ON webhook_attempts (account_id, id DESC)`);
    await q.query(`CREATE INDEX webhook_attempts_event_idx ON webhook_attempts (event_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE webhook_attempts`);
    await q.query(`DROP TABLE webhook_events`);
    await q.query(`ALTER TABLE accounts DROP COLUMN webhook_secret`);
    await q.query(`ALTER TABLE accounts DROP COLUMN webhook_status_url`);
    await q.query(`ALTER TABLE accounts DROP COLUMN webhook_inbound_url`);
  }
}
