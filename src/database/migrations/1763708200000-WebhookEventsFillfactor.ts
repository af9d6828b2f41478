import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Webhook events are stored half-filled (fillfactor 50), those of the days already made and, through the
 * partition maintenance's storage setting, those made from now on. A claim writes the lease into the event
 * (locked_until, leased_by: no index has either), so with room on its page the update is HOT: no new entry
 * in the primary key or the due index, and the claims that follow scan fewer dead entries. A full page
 * (the default) moved every leased event to another page with two new index entries.
 */
export class WebhookEventsFillfactor1763708200000 implements MigrationInterface {
  name = 'WebhookEventsFillfactor1763708200000';

  async up(q: QueryRunner): Promise<void> {
    for (const partition of await partitionsOf(q)) await q.query(`ALTER TABLE ${partition} SET (fillfactor = 50)`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const partition of await partitionsOf(q)) await q.query(`ALTER TABLE ${partition} RESET (fillfactor)`);
  }
}

async function partitionsOf(q: QueryRunner): Promise<string[]> {
  const rows: Array<{ name: string }> = await q.query(
    `SELECT quote_ident(c.relname) AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = 'webhook_events'::regclass ORDER BY 1`,
  );
  return rows.map((r) => r.name);
}
