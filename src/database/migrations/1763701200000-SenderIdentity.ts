import { MigrationInterface, QueryRunner } from 'typeorm';

export class SenderIdentity1763701200000 implements MigrationInterface {
  name = 'SenderIdentity1763701200000';

  async up(q: QueryRunner): Promise<void> {
    // The platform's own account: it owns the messages the service sends for itself (own-mobile
    // confirmation texts), so they are never a customer's send, charge or history. At most one; made on first use.
    await q.query(`ALTER TABLE accounts ADD COLUMN is_system boolean NOT NULL DEFAULT false`);
    await q.query(`CREATE UNIQUE INDEX accounts_one_system_key ON accounts (is_system) WHERE is_system`);
    await q.query(`ALTER TABLE sends DROP CONSTRAINT sends_kind_check`);
    await q.query(`ALTER TABLE sends ADD CONSTRAINT sends_kind_check CHECK (kind IN ('batch', 'list', 'system'))`);

    // Own mobile as sender: each confirmation text sent (its link's SHA-256 only), counted per number
    // for the hourly throttle, and used at most once.
    await q.query(`
      CREATE TABLE sender_verifications (
        id bigserial PRIMARY KEY,
        account_id integer NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        sender_id integer NOT NULL REFERENCES senders(id) ON DELETE CASCADE,
        number text NOT NULL,
        token_sha256 bytea NOT NULL CONSTRAINT sender_verifications_token_sha256_check CHECK (octet_length(token_sha256) = 32),
        message_id uuid REFERENCES messages(id) ON DELETE SET NULL,
        user_id integer,
        api_key_id integer REFERENCES api_keys(id) ON DELETE SET NULL,
        created_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL,
        used_at timestamptz,
        retired_at timestamptz
      )`);
    await q.query(`CREATE UNIQUE INDEX sender_verifications_token_key ON sender_verifications (token_sha256)`);
    await q.query(`CREATE INDEX sender_verifications_number_idx ON sender_verifications (number, created_at)`);
    await q.query(`CREATE INDEX sender_verifications_sender_idx ON sender_verifications (sender_id, created_at)`);

    // ACMA Sender ID registrations. A brand (letters and digits, case and spaces ignored) is held by at
    // most one live registration across all accounts: two accounts racing for one brand cannot both win.
    await q.query(`
      CREATE TABLE sender_registrations (
        id serial PRIMARY KEY,
        account_id integer NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        sender text NOT NULL,
        brand_key text NOT NULL,
        business_name text NOT NULL,
        abn text NOT NULL CONSTRAINT sender_registrations_abn_check CHECK (abn ~ '^[0-9]{11}$'),
        reason text NOT NULL,
        state text NOT NULL CONSTRAINT sender_registrations_state_check CHECK (state IN ('submitted', 'approved', 'rejected')),
        rejection_reason text,
        user_id integer,
        api_key_id integer REFERENCES api_keys(id) ON DELETE SET NULL,
        submitted_at timestamptz NOT NULL,
        decided_at timestamptz,
        CONSTRAINT sender_registrations_rejection_check CHECK ((state = 'rejected') = (rejection_reason IS NOT NULL))
      )`);
    await q.query(`CREATE UNIQUE INDEX sender_registrations_brand_live_key ON sender_registrations (brand_key) WHERE state IN ('submitted', 'approved')`);
    await q.query(`CREATE INDEX sender_registrations_account_idx ON sender_registrations (account_id, id)`);
    await q.query(`CREATE INDEX sender_registrations_state_idx ON sender_registrations (state, id)`);

    // The dedicated number inventory (numbers:import). A number is available or assigned to one account,
    // free (the one free number per account) or paid (bought for 12 months: the purchases issue).
    await q.query(`
      CREATE TABLE dedicated_numbers (
        number text PRIMARY KEY CONSTRAINT dedicated_numbers_number_check CHECK (number ~ '^614[0-9]{8}$'),
        annual_price_cents integer NOT NULL CONSTRAINT dedicated_numbers_annual_price_cents_check CHECK (annual_price_cents >= 0),
        status text NOT NULL DEFAULT 'available' CONSTRAINT dedicated_numbers_status_check CHECK (status IN ('available', 'assigned')),
        account_id integer REFERENCES accounts(id),
        kind text CONSTRAINT dedicated_numbers_kind_check CHECK (kind IN ('free', 'paid')),
        assigned_at timestamptz,
        imported_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT dedicated_numbers_assignment_check CHECK (
          (status = 'available' AND account_id IS NULL AND kind IS NULL AND assigned_at IS NULL)
          OR (status = 'assigned' AND account_id IS NOT NULL AND kind IS NOT NULL AND assigned_at IS NOT NULL))
      )`);
    // The next number to hand out: cheapest first.
    await q.query(`CREATE INDEX dedicated_numbers_available_idx ON dedicated_numbers (annual_price_cents, number) WHERE status = 'available'`);
    await q.query(`CREATE INDEX dedicated_numbers_account_idx ON dedicated_numbers (account_id) WHERE account_id IS NOT NULL`);

    // The free number, once per account (the primary key), with the service address it was claimed for.
    await q.query(`
      CREATE TABLE free_number_claims (
        account_id integer PRIMARY KEY REFERENCES accounts(id) ON DELETE CASCADE,
        number text NOT NULL REFERENCES dedicated_numbers(number),
        street text NOT NULL,
        suburb text NOT NULL DEFAULT '',
        state text NOT NULL CONSTRAINT free_number_claims_state_check CHECK (state IN ('NSW', 'VIC', 'QLD', 'WA', 'SA', 'TAS', 'ACT', 'NT')),
        postcode text NOT NULL CONSTRAINT free_number_claims_postcode_check CHECK (postcode ~ '^[0-9]{4}$'),
        user_id integer,
        api_key_id integer REFERENCES api_keys(id) ON DELETE SET NULL,
        claimed_at timestamptz NOT NULL
      )`);
    await q.query(`CREATE UNIQUE INDEX free_number_claims_number_key ON free_number_claims (number)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE free_number_claims`);
    await q.query(`DROP TABLE dedicated_numbers`);
    await q.query(`DROP TABLE sender_registrations`);
    await q.query(`DROP TABLE sender_verifications`);
    await q.query(`DELETE FROM messages WHERE send_id IN (SELECT id FROM sends WHERE kind = 'system')`);
    await q.query(`DELETE FROM sends WHERE kind = 'system'`);
    await q.query(`ALTER TABLE sends DROP CONSTRAINT sends_kind_check`);
    await q.query(`ALTER TABLE sends ADD CONSTRAINT sends_kind_check CHECK (kind IN ('batch', 'list'))`);
    await q.query(`DROP INDEX accounts_one_system_key`);
    await q.query(`ALTER TABLE accounts DROP COLUMN is_system`);
  }
}
