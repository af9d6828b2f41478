import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Requests of a test account to go live (src/live-requests): the business details the owner gave (ABN
 * checked by its checksum), the state an operator decided, the reason of a decline and the starting
 * credit of an approval. At most one request of an account waits for review at a time.
 */
export class LiveRequests1763705100000 implements MigrationInterface {
  name = 'LiveRequests1763705100000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE live_requests (
        id serial PRIMARY KEY,
        account_id integer NOT NULL CONSTRAINT live_requests_account_id_fkey REFERENCES accounts(id) ON DELETE CASCADE,
        user_id integer,
        business_name text NOT NULL,
        abn text NOT NULL CONSTRAINT live_requests_abn_check CHECK (abn ~ '^[0-9]{11}$'),
        website text NOT NULL,
        intended_use text NOT NULL,
        state text NOT NULL CONSTRAINT live_requests_state_check CHECK (state IN ('pending', 'approved', 'declined')),
        decline_reason text,
        starting_credits bigint,
        submitted_at timestamptz NOT NULL,
        decided_at timestamptz,
        CONSTRAINT live_requests_decline_check CHECK ((state = 'declined') = (decline_reason IS NOT NULL)),
        CONSTRAINT live_requests_credits_check CHECK ((state = 'approved') = (starting_credits IS NOT NULL) AND (starting_credits IS NULL OR starting_credits >= 0))
      )`);
    await q.query(`CREATE UNIQUE INDEX live_requests_one_pending_key ON live_requests (account_id) WHERE state = 'pending'`);
    await q.query(`CREATE INDEX live_requests_account_idx ON live_requests (account_id, id)`);
    await q.query(`CREATE INDEX live_requests_state_idx ON live_requests (state, id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE live_requests`);
  }
}
