import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Short links (shorten_urls) and per-recipient opt-out links, written with their messages in the send's
 * transaction (before the messages, so there is no foreign key to them; the send's is enough). Clicks
 * are appended to link_click_events (no row is updated per click) and folded into the link's counters
 * set-based; hits from link-preview fetchers and scanners are counted apart.
 */
export class Links1763701800000 implements MigrationInterface {
  name = 'Links1763701800000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE short_links (
        code text PRIMARY KEY,
        account_id integer NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        send_id bigint NOT NULL REFERENCES sends(id) ON DELETE CASCADE,
        message_id uuid NOT NULL,
        recipient text NOT NULL,
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
    await q.query(`CREATE INDEX short_links_message_idx ON short_links (message_id)`);
    await q.query(`CREATE INDEX short_links_send_idx ON short_links (send_id)`);
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
