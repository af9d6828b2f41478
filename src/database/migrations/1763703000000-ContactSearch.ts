import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Contact search for the dashboard (contacts/contact-search.ts): trigram indexes (pg_trgm) over the
 * number in both its forms and over the text fields, each led by account_id (btree_gin, so one account's
 * search never reads another's matches). Both extensions ship with PostgreSQL (contrib) and are trusted.
 */
export class ContactSearch1763703000000 implements MigrationInterface {
  name = 'ContactSearch1763703000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE EXTENSION IF NOT EXISTS pg_trgm`);
    await q.query(`CREATE EXTENSION IF NOT EXISTS btree_gin`);
    await q.query(`CREATE INDEX contacts_search_number_idx ON contacts USING gin (account_id, (number || ' 0' || substr(number, 3)) gin_trgm_ops)`);
    await q.query(
      `CREATE INDEX contacts_search_text_idx ON contacts USING gin (account_id, lower(first_name || ' ' || last_name || ' ' || company || ' ' || other || ' ' || field_1 || ' ' || field_2 || ' ' || field_3 || ' ' || field_4 || ' ' || field_5) gin_trgm_ops)`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX contacts_search_text_idx`);
    await q.query(`DROP INDEX contacts_search_number_idx`);
  }
}
