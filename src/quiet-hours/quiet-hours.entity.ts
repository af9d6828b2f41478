import { Check, Column, Entity, ForeignKey, PrimaryColumn, UpdateDateColumn } from 'typeorm';

/** An account's allowed sending window in each recipient's local time (src/quiet-hours). */
@Entity({ name: 'quiet_hours' })
@Check('quiet_hours_window_check', 'allowed_from >= 0 AND allowed_until <= 1440 AND allowed_from < allowed_until')
@Check('quiet_hours_days_check', "cardinality(days) > 0 AND days <@ '{1,2,3,4,5,6,7}'::smallint[]")
@Check('quiet_hours_zone_field_check', "zone_field IN ('first_name', 'last_name', 'company', 'other', 'field_1', 'field_2', 'field_3', 'field_4', 'field_5')")
export class QuietHoursSetting {
  @ForeignKey('Account', { name: 'quiet_hours_account_id_fkey', onDelete: 'CASCADE' })
  @PrimaryColumn({ name: 'account_id', type: 'integer' })
  accountId: number;

  @Column({ name: 'enabled', type: 'boolean', default: false })
  enabled: boolean;

  /** Minutes after local midnight when sending may start (default 09:00). */
  @Column({ name: 'allowed_from', type: 'smallint', default: 540 })
  allowedFrom: number;

  /** Minutes after local midnight when sending must stop (default 20:00). */
  @Column({ name: 'allowed_until', type: 'smallint', default: 1200 })
  allowedUntil: number;

  /** ISO weekdays sending is allowed on (1 Monday … 7 Sunday). */
  @Column({ name: 'days', type: 'smallint', array: true, default: () => "'{1,2,3,4,5,6}'" })
  days: number[];

  /** Local dates with no sending at all (public holidays). */
  @Column({ name: 'skip_dates', type: 'date', array: true, default: () => "'{}'" })
  skipDates: string[];

  /** The contact field holding a recipient's state code or zone; null: the account's zone for everyone. */
  @Column({ name: 'zone_field', type: 'text', nullable: true })
  zoneField: string | null;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
