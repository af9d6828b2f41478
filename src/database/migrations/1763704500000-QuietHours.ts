import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Quiet hours (src/quiet-hours): an account's allowed sending window in the recipient's local time
 * (minutes after local midnight, ISO weekdays, dates to skip), off until the account turns it on, and
 * quiet_hours_next(): the first moment at or after `at` inside the window in a zone, computed by
 * PostgreSQL's own zone rules (daylight saving included) so a whole send is moved in one statement.
 */
const CONTACT_FIELDS = ['first_name', 'last_name', 'company', 'other', 'field_1', 'field_2', 'field_3', 'field_4', 'field_5'];

export class QuietHours1763704500000 implements MigrationInterface {
  name = 'QuietHours1763704500000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE quiet_hours (
        account_id integer PRIMARY KEY CONSTRAINT quiet_hours_account_id_fkey REFERENCES accounts (id) ON DELETE CASCADE,
        enabled boolean NOT NULL DEFAULT false,
        allowed_from smallint NOT NULL DEFAULT 540,
        allowed_until smallint NOT NULL DEFAULT 1200,
        days smallint[] NOT NULL DEFAULT '{1,2,3,4,5,6}',
        skip_dates date[] NOT NULL DEFAULT '{}',
        zone_field text,
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT quiet_hours_window_check CHECK (allowed_from >= 0 AND allowed_until <= 1440 AND allowed_from < allowed_until),
        CONSTRAINT quiet_hours_days_check CHECK (cardinality(days) > 0 AND days <@ '{1,2,3,4,5,6,7}'::smallint[]),
        CONSTRAINT quiet_hours_zone_field_check CHECK (zone_field IN (${CONTACT_FIELDS.map((f) => `'${f}'`).join(', ')}))
      )`);
    await q.query(`
      CREATE FUNCTION quiet_hours_next(at timestamptz, zone text, allowed_from integer, allowed_until integer, days smallint[], skip_dates date[])
      RETURNS timestamptz LANGUAGE plpgsql STABLE AS $$
      DECLARE
        first_day date := (at AT TIME ZONE zone)::date;
        day date;
        opens timestamptz;
        closes timestamptz;
      BEGIN
        -- A year ahead at most: a window that never opens (every date skipped) answers null.
        FOR i IN 0..366 LOOP
          day := first_day + i;
          CONTINUE WHEN NOT (extract(isodow FROM day)::smallint = ANY (days)) OR day = ANY (skip_dates);
          -- Local wall-clock times to instants; a time the clocks skip reads as standard time (an hour on).
          opens := (day + make_interval(mins => allowed_from)) AT TIME ZONE zone;
          closes := (day + make_interval(mins => allowed_until)) AT TIME ZONE zone;
          IF at < opens THEN RETURN opens; END IF;
          IF at < closes THEN RETURN at; END IF;
        END LOOP;
        RETURN NULL;
      END $$`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP FUNCTION quiet_hours_next(timestamptz, text, integer, integer, smallint[], date[])`);
    await q.query(`DROP TABLE quiet_hours`);
  }
}
