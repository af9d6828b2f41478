import { MigrationInterface, QueryRunner } from 'typeorm';

export class AddressBook1763700100000 implements MigrationInterface {
  name = 'AddressBook1763700100000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE contacts (
        id bigserial PRIMARY KEY,
        account_id integer NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        number text NOT NULL CHECK (number ~ '^614[0-9]{8}$'),
        first_name text NOT NULL DEFAULT '',
        last_name text NOT NULL DEFAULT '',
        company text NOT NULL DEFAULT '',
        other text NOT NULL DEFAULT '',
        field_1 text NOT NULL DEFAULT '',
        field_2 text NOT NULL DEFAULT '',
        field_3 text NOT NULL DEFAULT '',
        field_4 text NOT NULL DEFAULT '',
        field_5 text NOT NULL DEFAULT '',
        -- false when the row was created while the account allowed duplicate numbers
        dedupe boolean NOT NULL DEFAULT true,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    // One contact per number unless the account allows duplicates; also serves lookups by number.
    await q.query(`CREATE UNIQUE INDEX contacts_account_number_unique ON contacts (account_id, number) WHERE dedupe`);
    await q.query(`CREATE INDEX contacts_account_number_idx ON contacts (account_id, number, updated_at DESC)`);
    // Newest first pagination per account.
    await q.query(`CREATE INDEX contacts_account_id_idx ON contacts (account_id, id DESC)`);

    await q.query(`
      CREATE TABLE contact_lists (
        id bigserial PRIMARY KEY,
        account_id integer NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        name text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE UNIQUE INDEX contact_lists_account_name_key ON contact_lists (account_id, name)`);

    await q.query(`
      CREATE TABLE list_members (
        list_id bigint NOT NULL REFERENCES contact_lists(id) ON DELETE CASCADE,
        contact_id bigint NOT NULL REFERENCES contacts(id) ON DELETE CASCADE,
        added_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (list_id, contact_id)
      )`);
    // Removing a contact from every list, and finding a number's lists.
    await q.query(`CREATE INDEX list_members_contact_idx ON list_members (contact_id)`);

    await q.query(`
      CREATE TABLE unsubscribes (
        account_id integer NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        number text NOT NULL CHECK (number ~ '^614[0-9]{8}$'),
        source text NOT NULL CHECK (source IN ('api', 'reply', 'link')),
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (account_id, number)
      )`);
    await q.query(`CREATE INDEX unsubscribes_account_created_idx ON unsubscribes (account_id, created_at DESC)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE unsubscribes`);
    await q.query(`DROP TABLE list_members`);
    await q.query(`DROP TABLE contact_lists`);
    await q.query(`DROP TABLE contacts`);
  }
}
