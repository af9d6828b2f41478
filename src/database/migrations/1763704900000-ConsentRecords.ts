import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Consent records (src/consent): every change of a number's standing with an account, opt-in or
 * opt-out, with how and the evidence. Append-only in the database itself: a trigger refuses every
 * UPDATE and every DELETE (except the cascade of the account's own deletion) and TRUNCATE.
 */
export class ConsentRecords1763704900000 implements MigrationInterface {
  name = 'ConsentRecords1763704900000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE consent_records (
        id bigserial PRIMARY KEY,
        account_id integer NOT NULL CONSTRAINT consent_records_account_id_fkey REFERENCES accounts (id) ON DELETE CASCADE,
        number text NOT NULL CONSTRAINT consent_records_number_check CHECK (number ~ '^614[0-9]{8}$'),
        change text NOT NULL CONSTRAINT consent_records_change_check CHECK (change IN ('opt_in', 'opt_out')),
        source text NOT NULL CONSTRAINT consent_records_source_check CHECK (source IN ('reply', 'keyword', 'start', 'link', 'api', 'dashboard', 'import')),
        inbound_message_id uuid,
        message_id uuid,
        client_address text,
        api_key_id integer,
        user_id integer,
        detail text,
        recorded_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX consent_records_account_number_idx ON consent_records (account_id, number, recorded_at)`);
    await q.query(`CREATE INDEX consent_records_account_recorded_idx ON consent_records (account_id, recorded_at)`);
    await q.query(`
      CREATE FUNCTION consent_records_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        -- The only removal allowed: the account itself is being deleted (its row is already gone).
        IF TG_OP = 'DELETE' AND NOT EXISTS (SELECT 1 FROM accounts WHERE id = OLD.account_id) THEN
          RETURN OLD;
        END IF;
        RAISE EXCEPTION 'consent_records is append-only: % refused', TG_OP USING ERRCODE = 'insufficient_privilege';
      END $$`);
    await q.query(`CREATE TRIGGER consent_records_append_only BEFORE UPDATE OR DELETE ON consent_records FOR EACH ROW EXECUTE FUNCTION consent_records_append_only()`);
    await q.query(`CREATE TRIGGER consent_records_no_truncate BEFORE TRUNCATE ON consent_records FOR EACH STATEMENT EXECUTE FUNCTION consent_records_append_only()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE consent_records`);
    await q.query(`DROP FUNCTION consent_records_append_only()`);
  }
}
