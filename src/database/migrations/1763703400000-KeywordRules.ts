import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Keyword rules on inbound messages (src/keywords): an account's ordered rules, each matching a reply's
 * whole text, its first word or a wildcard pattern, on one of its numbers or all, with the actions to
 * take. Auto-replies are sends of kind `reply`; an inbound message records the rule it matched.
 */
export class KeywordRules1763703400000 implements MigrationInterface {
  name = 'KeywordRules1763703400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE keyword_rules (
        id bigserial PRIMARY KEY,
        account_id integer NOT NULL CONSTRAINT keyword_rules_account_id_fkey REFERENCES accounts (id) ON DELETE CASCADE,
        position integer NOT NULL,
        match text NOT NULL CONSTRAINT keyword_rules_match_check CHECK (match IN ('exact', 'first_word', 'pattern')),
        keyword text NOT NULL CONSTRAINT keyword_rules_keyword_check CHECK (keyword ~ '^[A-Z0-9*? ]{1,40}$'),
        number text,
        reply text,
        add_to_list_id bigint CONSTRAINT keyword_rules_add_to_list_id_fkey REFERENCES contact_lists (id) ON DELETE SET NULL,
        remove_from_list_id bigint CONSTRAINT keyword_rules_remove_from_list_id_fkey REFERENCES contact_lists (id) ON DELETE SET NULL,
        opt_out boolean NOT NULL DEFAULT false,
        opt_in boolean NOT NULL DEFAULT false,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX keyword_rules_account_position_idx ON keyword_rules (account_id, position, id)`);
    await q.query(`ALTER TABLE sends DROP CONSTRAINT sends_kind_check`);
    await q.query(`ALTER TABLE sends ADD CONSTRAINT sends_kind_check CHECK (kind IN ('batch', 'list', 'system', 'reply'))`);
    await q.query(`ALTER TABLE inbound_messages ADD COLUMN keyword_rule_id bigint`);
    await q.query(`ALTER TABLE inbound_messages ADD COLUMN keyword text`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE inbound_messages DROP COLUMN keyword`);
    await q.query(`ALTER TABLE inbound_messages DROP COLUMN keyword_rule_id`);
    await q.query(`DELETE FROM messages WHERE send_id IN (SELECT id FROM sends WHERE kind = 'reply')`);
    await q.query(`DELETE FROM sends WHERE kind = 'reply'`);
    await q.query(`ALTER TABLE sends DROP CONSTRAINT sends_kind_check`);
    await q.query(`ALTER TABLE sends ADD CONSTRAINT sends_kind_check CHECK (kind IN ('batch', 'list', 'system'))`);
    await q.query(`DROP TABLE keyword_rules`);
  }
}
