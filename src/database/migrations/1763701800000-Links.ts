import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Short links (shorten_urls) and per-recipient opt-out links (the recipient is their message's), written with their messages in the send's
 * transaction, before the messages. No foreign keys: a key is checked row by row (a 10000-message send
 * writes 10000 links, and the checks cost more than the rows), the rows are only ever written by the
 * send that also writes their account, send and message, and accounts and sends are never deleted. Clicks
 * are appended to link_click_events (no row is updated per click) and folded into the link's counters
 * set-based; hits from link-preview fetchers and scanners are counted apart.
 */
export class Links1763701800000 implements MigrationInterface {
  name = 'Links1763701800000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE short_links (
        code text COLLATE "C" PRIMARY KEY,
        account_id integer NOT NULL,
        send_id bigint NOT NULL,
        message_id uuid NOT NULL,
        kind text NOT NULL,
        url text,
        created_at timestamptz NOT NULL DEFAULT now(),
        clicks integer NOT NULL DEFAULT 0,
        first_clicked_at timestamptz,
        last_clicked_at timestamptz,
        preview_hits integer NOT NULL DEFAULT 0,
        CONSTRAINT short_links_kind_check CHECK (kind IN ('url', 'optout')),
        CONSTRAINT short_links_url_check CHECK ((kind = 'url') = (url IS NOT NULL))
      )`);
    // A send's links are written together, so they lie together: a BRIN range index finds them (both
    // reports: by send, and by message through its send) at almost no cost to the 10000-row insert.
    await q.query(`CREATE INDEX short_links_send_idx ON short_links USING brin (send_id)`);
    await q.query(`
      CREATE TABLE link_click_events (
        id bigserial PRIMARY KEY,
        code text NOT NULL,
        preview boolean NOT NULL,
        clicked_at timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE link_click_events`);
    await q.query(`DROP TABLE short_links`);
  }
}
