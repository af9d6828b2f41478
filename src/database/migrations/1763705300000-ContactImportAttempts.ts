import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Contact imports (contact-imports/) get a bounded number of runs, a stated consent source and who
 * started them, and the operator CLI as a third origin:
 * - `attempts` counts runs started (a run that crashed its worker counts too, which only a counter
 *   moved before the work can see); past the limit the import fails with `last_error` as its reason.
 * - `consent_source` is what the importer said about how the numbers consented; an import with one
 *   appends opt-in consent records. `api_key_id` / `user_id` are the evidence of who said it (no
 *   foreign key: the evidence outlives a revoked key or a removed person, as in consent_records).
 */
export class ContactImportAttempts1763705300000 implements MigrationInterface {
  name = 'ContactImportAttempts1763705300000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE contact_imports
        ADD COLUMN attempts integer NOT NULL DEFAULT 0,
        ADD COLUMN last_error text NULL,
        ADD COLUMN consent_source text NULL,
        ADD COLUMN api_key_id integer NULL,
        ADD COLUMN user_id integer NULL`);
    await q.query(`ALTER TABLE contact_imports DROP CONSTRAINT contact_imports_origin_check`);
    await q.query(`ALTER TABLE contact_imports ADD CONSTRAINT contact_imports_origin_check CHECK (origin IN ('api', 'dashboard', 'cli'))`);
    // The retention purge's read: finished imports by when they finished.
    await q.query(`CREATE INDEX contact_imports_finished_idx ON contact_imports (finished_at) WHERE finished_at IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX contact_imports_finished_idx`);
    await q.query(`DELETE FROM contact_imports WHERE origin = 'cli'`);
    await q.query(`ALTER TABLE contact_imports DROP CONSTRAINT contact_imports_origin_check`);
    await q.query(`ALTER TABLE contact_imports ADD CONSTRAINT contact_imports_origin_check CHECK (origin IN ('api', 'dashboard'))`);
    await q.query(`ALTER TABLE contact_imports DROP COLUMN attempts, DROP COLUMN last_error, DROP COLUMN consent_source, DROP COLUMN api_key_id, DROP COLUMN user_id`);
  }
}
