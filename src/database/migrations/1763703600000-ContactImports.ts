import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Contact imports run as jobs (contact-imports/): the uploaded CSV and its column mapping are kept here
 * until the import completes, so a worker that stops mid-file resumes from `processed_rows` (written in
 * the same transaction as each chunk's contacts) instead of starting again. The report (invalid lines,
 * duplicates, opted-out numbers) is kept with the import.
 */
export class ContactImports1763703600000 implements MigrationInterface {
  name = 'ContactImports1763703600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE contact_imports (
        id bigserial PRIMARY KEY,
        account_id integer NOT NULL,
        list_id bigint NULL,
        state text NOT NULL,
        origin text NOT NULL,
        file_name text NOT NULL DEFAULT '',
        csv text NOT NULL,
        mapping jsonb NULL,
        total_rows integer NOT NULL DEFAULT 0,
        valid_rows integer NOT NULL DEFAULT 0,
        processed_rows integer NOT NULL DEFAULT 0,
        added integer NOT NULL DEFAULT 0,
        updated integer NOT NULL DEFAULT 0,
        added_to_list integer NOT NULL DEFAULT 0,
        invalid jsonb NOT NULL DEFAULT '[]',
        duplicates jsonb NOT NULL DEFAULT '[]',
        opted_out jsonb NOT NULL DEFAULT '[]',
        failure text NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        finished_at timestamptz NULL,
        CONSTRAINT contact_imports_account_id_fkey FOREIGN KEY (account_id) REFERENCES accounts(id) ON DELETE CASCADE,
        CONSTRAINT contact_imports_list_id_fkey FOREIGN KEY (list_id) REFERENCES contact_lists(id) ON DELETE SET NULL,
        CONSTRAINT contact_imports_state_check CHECK (state IN ('draft', 'queued', 'running', 'complete', 'failed')),
        CONSTRAINT contact_imports_origin_check CHECK (origin IN ('api', 'dashboard'))
      )`);
    await q.query(`CREATE INDEX contact_imports_account_idx ON contact_imports (account_id, id)`);
    // The sweep's read: imports a worker should be running.
    await q.query(`CREATE INDEX contact_imports_unfinished_idx ON contact_imports (id) WHERE state IN ('queued', 'running')`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE contact_imports`);
  }
}
