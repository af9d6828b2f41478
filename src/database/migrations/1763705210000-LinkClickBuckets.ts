import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Clicks by when they happened: the fold that adds appended hits to each link's counter also adds them,
 * per send, to 15-minute buckets (UTC quarter hours). Every Australian zone is a whole number of quarter
 * hours from UTC (Eucla +8:45, Adelaide +9:30, Lord Howe +10:30), so a bucket lies inside one calendar day
 * of any of them and reports can count clicks by the day they were clicked, on the account's calendar.
 * No foreign keys, as for short_links (written only by the fold, from rows that name their account and send).
 *
 * Clicks folded before this migration kept only their link's first and last time: the first click is put
 * in its quarter hour and the rest in the last click's, the nearest these rows allow.
 */
export class LinkClickBuckets1763705210000 implements MigrationInterface {
  name = 'LinkClickBuckets1763705210000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE link_click_buckets (
        account_id integer NOT NULL,
        bucket timestamptz NOT NULL,
        send_id bigint NOT NULL,
        clicks integer NOT NULL,
        CONSTRAINT link_click_buckets_pkey PRIMARY KEY (account_id, bucket, send_id),
        CONSTRAINT link_click_buckets_clicks_check CHECK (clicks > 0)
      )`);
    await q.query(`
      INSERT INTO link_click_buckets (account_id, bucket, send_id, clicks)
      SELECT account_id, bucket, send_id, sum(clicks)::int
        FROM (SELECT account_id, send_id, date_bin('15 minutes', first_clicked_at, 'epoch') AS bucket, 1 AS clicks
                FROM short_links WHERE kind = 'url' AND clicks > 0 AND first_clicked_at IS NOT NULL
              UNION ALL
              SELECT account_id, send_id, date_bin('15 minutes', last_clicked_at, 'epoch'), clicks - 1
                FROM short_links WHERE kind = 'url' AND clicks > 1 AND last_clicked_at IS NOT NULL) c
       GROUP BY account_id, bucket, send_id`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE link_click_buckets`);
  }
}
