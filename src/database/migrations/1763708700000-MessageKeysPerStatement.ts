import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A message's send and a part's account are checked once per statement instead of once per row. A foreign
 * key runs one locking lookup per inserted row (a campaign writes a message and a part per recipient); a
 * statement trigger reads the statement's new rows once and looks up each distinct send or account among
 * them. Writing a message and its part cost one backend about 55 µs of CPU with the keys and 42 with
 * these triggers (and about 40 with no check at all).
 * Everything the two keys promised still holds, with the same constraint names and texts:
 * - new rows name an existing send of their own account (messages) or an existing account (parts), or the
 *   statement fails with foreign_key_violation; the sends or accounts they name are locked FOR KEY SHARE
 *   until commit, as the keys locked them, so a concurrent delete waits and then takes the new rows too;
 * - deleting a send deletes its messages, and deleting an account its parts (accounts take their sends,
 *   and so their messages, through sends' own key);
 * - the columns a key covered never change: a message's account and send, a part's account, a send's id
 *   and account.
 * What a foreign key covered and these do not, none of which the service does (it never deletes a send
 * or an account, nor changes a row's id): statements on a partition itself (the partition maintenance
 * moves rows checked when first written out of the catch-all that way); an update that moves a row to
 * another partition (a new id), which PostgreSQL runs as a delete and an insert without these row
 * triggers; a delete in a REPEATABLE READ transaction, which leaves rows committed after its snapshot; and
 * TRUNCATE. A BEFORE UPDATE trigger would catch the moves, but it locks every row a receipt updates.
 */
export class MessageKeysPerStatement1763708700000 implements MigrationInterface {
  name = 'MessageKeysPerStatement1763708700000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE messages DROP CONSTRAINT messages_send_account_fkey`);
    await q.query(`ALTER TABLE message_parts DROP CONSTRAINT message_parts_account_id_fkey`);
    // Key lookups only: a plan cached for a few rows must not become a scan of every send or account.
    await q.query(`
      CREATE FUNCTION messages_check_sends() RETURNS trigger LANGUAGE plpgsql
      SET enable_seqscan = off SET enable_hashjoin = off SET enable_mergejoin = off AS $$
      DECLARE
        wanted bigint;
        held bigint;
      BEGIN
        SELECT count(*) INTO wanted FROM (SELECT DISTINCT account_id, send_id FROM new_messages) w;
        PERFORM 1 FROM sends s WHERE (s.account_id, s.id) IN (SELECT account_id, send_id FROM new_messages) ORDER BY s.id FOR KEY SHARE OF s;
        GET DIAGNOSTICS held = ROW_COUNT;
        IF held < wanted THEN
          RAISE foreign_key_violation USING
            MESSAGE = 'insert or update on table "messages" violates foreign key constraint "messages_send_account_fkey"',
            DETAIL = 'A message names a send that does not exist in its account.',
            CONSTRAINT = 'messages_send_account_fkey', TABLE = 'messages';
        END IF;
        RETURN NULL;
      END $$`);
    // Shared with every other table whose rows name their account (the arguments: the table, the constraint).
    await q.query(`
      CREATE FUNCTION rows_check_accounts() RETURNS trigger LANGUAGE plpgsql
      SET enable_seqscan = off SET enable_hashjoin = off SET enable_mergejoin = off AS $$
      DECLARE
        wanted bigint;
        held bigint;
      BEGIN
        SELECT count(DISTINCT account_id) INTO wanted FROM new_rows;
        PERFORM 1 FROM accounts a WHERE a.id IN (SELECT account_id FROM new_rows) ORDER BY a.id FOR KEY SHARE OF a;
        GET DIAGNOSTICS held = ROW_COUNT;
        IF held < wanted THEN
          RAISE foreign_key_violation USING
            MESSAGE = format('insert or update on table "%s" violates foreign key constraint "%s"', TG_ARGV[0], TG_ARGV[1]),
            DETAIL = 'A row names an account that does not exist.',
            CONSTRAINT = TG_ARGV[1], TABLE = TG_ARGV[0];
        END IF;
        RETURN NULL;
      END $$`);
    await q.query(
      `CREATE TRIGGER messages_sends_checked AFTER INSERT ON messages REFERENCING NEW TABLE AS new_messages FOR EACH STATEMENT EXECUTE FUNCTION messages_check_sends()`,
    );
    await q.query(
      `CREATE TRIGGER message_parts_accounts_checked AFTER INSERT ON message_parts REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT
       EXECUTE FUNCTION rows_check_accounts('message_parts', 'message_parts_account_id_fkey')`,
    );

    await q.query(`
      CREATE FUNCTION sends_take_messages() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        DELETE FROM messages m USING gone_sends g WHERE m.send_id = g.id AND m.account_id = g.account_id;
        RETURN NULL;
      END $$`);
    // The argument: the table whose rows go with their account.
    await q.query(`
      CREATE FUNCTION accounts_take_rows() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        EXECUTE format('DELETE FROM %I t USING gone_accounts g WHERE t.account_id = g.id', TG_ARGV[0]);
        RETURN NULL;
      END $$`);
    await q.query(`CREATE TRIGGER sends_messages_deleted AFTER DELETE ON sends REFERENCING OLD TABLE AS gone_sends FOR EACH STATEMENT EXECUTE FUNCTION sends_take_messages()`);
    await q.query(
      `CREATE TRIGGER accounts_message_parts_deleted AFTER DELETE ON accounts REFERENCING OLD TABLE AS gone_accounts FOR EACH STATEMENT
       EXECUTE FUNCTION accounts_take_rows('message_parts')`,
    );

    // Row triggers that fire only when a statement sets one of the named columns (no hot path does);
    // the arguments: the table as its statements name it (not the partition), and the constraint.
    await q.query(`
      CREATE FUNCTION refuse_key_change() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE foreign_key_violation USING
          MESSAGE = format('update on table "%s" would change a key checked by constraint "%s"', TG_ARGV[0], TG_ARGV[1]),
          CONSTRAINT = TG_ARGV[1], TABLE = TG_ARGV[0];
      END $$`);
    await q.query(`
      CREATE TRIGGER messages_send_account_kept AFTER UPDATE OF account_id, send_id ON messages FOR EACH ROW
      WHEN (OLD.account_id IS DISTINCT FROM NEW.account_id OR OLD.send_id IS DISTINCT FROM NEW.send_id)
      EXECUTE FUNCTION refuse_key_change('messages', 'messages_send_account_fkey')`);
    await q.query(`
      CREATE TRIGGER message_parts_account_kept AFTER UPDATE OF account_id ON message_parts FOR EACH ROW
      WHEN (OLD.account_id IS DISTINCT FROM NEW.account_id)
      EXECUTE FUNCTION refuse_key_change('message_parts', 'message_parts_account_id_fkey')`);
    await q.query(`
      CREATE TRIGGER sends_key_kept AFTER UPDATE OF id, account_id ON sends FOR EACH ROW
      WHEN (OLD.id IS DISTINCT FROM NEW.id OR OLD.account_id IS DISTINCT FROM NEW.account_id)
      EXECUTE FUNCTION refuse_key_change('sends', 'messages_send_account_fkey')`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER sends_key_kept ON sends`);
    await q.query(`DROP TRIGGER message_parts_account_kept ON message_parts`);
    await q.query(`DROP TRIGGER messages_send_account_kept ON messages`);
    await q.query(`DROP FUNCTION refuse_key_change()`);
    await q.query(`DROP TRIGGER accounts_message_parts_deleted ON accounts`);
    await q.query(`DROP TRIGGER sends_messages_deleted ON sends`);
    await q.query(`DROP FUNCTION accounts_take_rows()`);
    await q.query(`DROP FUNCTION sends_take_messages()`);
    await q.query(`DROP TRIGGER message_parts_accounts_checked ON message_parts`);
    await q.query(`DROP TRIGGER messages_sends_checked ON messages`);
    await q.query(`DROP FUNCTION rows_check_accounts()`);
    await q.query(`DROP FUNCTION messages_check_sends()`);
    await q.query(`ALTER TABLE message_parts ADD CONSTRAINT message_parts_account_id_fkey FOREIGN KEY (account_id) REFERENCES accounts (id) ON DELETE CASCADE`);
    await q.query(`ALTER TABLE messages ADD CONSTRAINT messages_send_account_fkey FOREIGN KEY (account_id, send_id) REFERENCES sends (account_id, id) ON DELETE CASCADE`);
  }
}
