import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Carriers as data (src/carriers): named SMSC connections managed by the operator CLI, and ordered routes
 * naming a weighted set of carriers with a fallback order. The SMPP_* environment shortcut stays carrier 0
 * (`env`) and the test-account simulator -1 (`simulator`), so a row is never named either and ids start at 1
 * and are never reused (parts keep a removed carrier's id: no foreign key points here). A statement trigger
 * bumps carrier_settings_version on every change, in the same transaction, so workers poll one row to
 * notice an edit (by the CLI or by hand) and reload exactly what was committed.
 */
export class Carriers1763705800000 implements MigrationInterface {
  name = 'Carriers1763705800000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE carriers (
        id smallint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        name text NOT NULL CONSTRAINT carriers_name_check CHECK (name ~ '^[a-z0-9][a-z0-9_-]{0,31}$' AND name NOT IN ('env', 'simulator')),
        host text NOT NULL,
        port integer NOT NULL CONSTRAINT carriers_port_check CHECK (port BETWEEN 1 AND 65535),
        tls boolean NOT NULL DEFAULT false,
        system_id text NOT NULL,
        password_sealed bytea NOT NULL,
        binds smallint NOT NULL CONSTRAINT carriers_binds_check CHECK (binds BETWEEN 1 AND 64),
        submit_window smallint NOT NULL CONSTRAINT carriers_submit_window_check CHECK (submit_window BETWEEN 1 AND 1000),
        tps_per_bind integer NOT NULL CONSTRAINT carriers_tps_per_bind_check CHECK (tps_per_bind BETWEEN 0 AND 100000),
        alpha_ton smallint NOT NULL DEFAULT 5,
        alpha_npi smallint NOT NULL DEFAULT 0,
        numeric_ton smallint NOT NULL DEFAULT 1,
        numeric_npi smallint NOT NULL DEFAULT 1,
        enabled boolean NOT NULL DEFAULT true,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT carriers_addressing_check CHECK (alpha_ton BETWEEN 0 AND 6 AND numeric_ton BETWEEN 0 AND 6 AND alpha_npi BETWEEN 0 AND 18 AND numeric_npi BETWEEN 0 AND 18)
      )`);
    await q.query(`CREATE UNIQUE INDEX carriers_name_key ON carriers (name)`);
    await q.query(`
      CREATE TABLE routes (
        id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        position integer NOT NULL,
        to_from text,
        to_through text,
        sender_kind text NOT NULL DEFAULT 'any' CONSTRAINT routes_sender_kind_check CHECK (sender_kind IN ('alphanumeric', 'numeric', 'any')),
        account_id integer CONSTRAINT routes_account_id_fkey REFERENCES accounts (id) ON DELETE CASCADE,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT routes_range_check CHECK (
          (to_from IS NULL AND to_through IS NULL)
          OR (to_from ~ '^[0-9]{1,15}$' AND to_through ~ '^[0-9]{1,15}$' AND length(to_from) = length(to_through) AND to_from <= to_through))
      )`);
    await q.query(`
      CREATE TABLE route_members (
        route_id integer NOT NULL CONSTRAINT route_members_route_id_fkey REFERENCES routes (id) ON DELETE CASCADE,
        carrier_id smallint NOT NULL CONSTRAINT route_members_carrier_id_check CHECK (carrier_id >= 0),
        weight smallint NOT NULL DEFAULT 1 CONSTRAINT route_members_weight_check CHECK (weight BETWEEN 1 AND 1000),
        priority smallint NOT NULL DEFAULT 0 CONSTRAINT route_members_priority_check CHECK (priority BETWEEN 0 AND 100),
        PRIMARY KEY (route_id, carrier_id)
      )`);
    await q.query(`
      CREATE TABLE carrier_settings_version (
        id boolean PRIMARY KEY DEFAULT true CONSTRAINT carrier_settings_version_one_row CHECK (id),
        version bigint NOT NULL DEFAULT 0
      )`);
    await q.query(`INSERT INTO carrier_settings_version (id, version) VALUES (true, 0)`);
    await q.query(`
      CREATE FUNCTION carrier_settings_changed() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        UPDATE carrier_settings_version SET version = version + 1;
        RETURN NULL;
      END $$`);
    for (const table of ['carriers', 'routes', 'route_members']) {
      await q.query(`CREATE TRIGGER ${table}_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON ${table} FOR EACH STATEMENT EXECUTE FUNCTION carrier_settings_changed()`);
    }
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE route_members`);
    await q.query(`DROP TABLE routes`);
    await q.query(`DROP TABLE carriers`);
    await q.query(`DROP TABLE carrier_settings_version`);
    await q.query(`DROP FUNCTION carrier_settings_changed()`);
  }
}
