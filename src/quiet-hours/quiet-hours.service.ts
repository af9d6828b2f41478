import { Injectable } from '@nestjs/common';
import { AccountsService } from '../accounts/accounts.service';
import { failure } from '../common/errors/error-catalogue';
import { australianTimeZoneOf } from '../common/time/australian-time-zones';
import { CONTACT_TEXT_FIELDS, type ContactTextField } from '../contacts/contact-fields';
import type { Tx } from '../database/unit-of-work';
import { QuietHoursRepository, QuietHoursRow } from './quiet-hours.repository';

const DAY_NAMES = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;

export interface QuietHoursView {
  status: 'complete';
  enabled: boolean;
  allowed_from: string;
  allowed_until: string;
  days: string[];
  skip_dates: string[];
  zone_field: string | null;
}

export interface QuietHoursUpdate {
  enabled?: boolean;
  allowedFrom?: string;
  allowedUntil?: string;
  days?: unknown;
  skipDates?: unknown;
  zoneField?: string | null;
}

/** "HH:MM" (00:00 to 24:00) as minutes after midnight, or null. */
export function minutesOf(text: string): number | null {
  const m = /^(\d{2}):(\d{2})$/.exec(text);
  if (!m) return null;
  const minutes = Number(m[1]) * 60 + Number(m[2]);
  return Number(m[2]) < 60 && minutes <= 1440 ? minutes : null;
}

const clock = (minutes: number) => `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;

function isCalendarDate(text: unknown): text is string {
  if (typeof text !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const d = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === text;
}

/** A recipient of a send, as quiet hours see it: when it would go, and the contact's fields (for its zone). */
export interface QuietRecipient {
  at: Date;
  fields?: Partial<Record<ContactTextField, string>>;
}

/**
 * Quiet hours: an account's sending window in each recipient's local time. The recipient's zone is the
 * contact field the setting names (a state code or an Australian zone name) or else the account's zone;
 * the moving itself is one SQL statement per send (quiet_hours_next, PostgreSQL's zone rules).
 */
@Injectable()
export class QuietHoursService {
  constructor(
    private readonly repo: QuietHoursRepository,
    private readonly accounts: AccountsService,
  ) {}

  async get(accountId: number): Promise<QuietHoursView> {
    return toView(await this.repo.find(accountId));
  }

  /** Applies a change (the API's checks and texts); `tx` lets a caller record it in the same transaction. */
  async update(accountId: number, change: QuietHoursUpdate, tx?: Tx): Promise<QuietHoursView> {
    const next: QuietHoursRow = { ...(await this.repo.find(accountId, tx)) };
    if (change.enabled !== undefined) next.enabled = change.enabled;
    if (change.allowedFrom !== undefined) next.allowed_from = minutesOf(change.allowedFrom) ?? fail('quietHoursTimeInvalid', 'allowed_from');
    if (change.allowedUntil !== undefined) next.allowed_until = minutesOf(change.allowedUntil) ?? fail('quietHoursTimeInvalid', 'allowed_until');
    if (next.allowed_from >= next.allowed_until) throw failure('quietHoursWindowInvalid');
    if (change.days !== undefined) {
      const days = change.days;
      if (!Array.isArray(days) || days.length === 0 || !days.every((d) => typeof d === 'string' && (DAY_NAMES as readonly string[]).includes(d.toLowerCase()))) {
        throw failure('quietHoursDaysInvalid');
      }
      next.days = [...new Set(days.map((d: string) => DAY_NAMES.indexOf(d.toLowerCase() as (typeof DAY_NAMES)[number]) + 1))].sort();
    }
    if (change.skipDates !== undefined) {
      const dates = change.skipDates;
      if (!Array.isArray(dates) || dates.length > 100 || !dates.every(isCalendarDate)) throw failure('quietHoursSkipDatesInvalid');
      next.skip_dates = [...new Set(dates as string[])].sort();
    }
    if (change.zoneField !== undefined) {
      if (change.zoneField !== null && change.zoneField !== '' && !(CONTACT_TEXT_FIELDS as readonly string[]).includes(change.zoneField))
        throw failure('quietHoursZoneFieldInvalid');
      next.zone_field = change.zoneField === '' ? null : change.zoneField;
    }
    await this.repo.save(accountId, next, tx);
    return toView(next);
  }

  /**
   * When each recipient's message may go: its own time when quiet hours are off (or it is inside the
   * window), else the next allowed minute in the recipient's zone. Null when quiet hours are off.
   */
  async schedule(accountId: number, recipients: QuietRecipient[]): Promise<Date[] | null> {
    const setting = await this.repo.find(accountId);
    if (!setting.enabled || recipients.length === 0) return null;
    const accountZone = (await this.accounts.get(accountId)).timeZone;
    const zones = recipients.map((r) => {
      const written = setting.zone_field ? r.fields?.[setting.zone_field as ContactTextField] : undefined;
      return (written && australianTimeZoneOf(written)) || accountZone;
    });
    const next = await this.repo.nextAllowed(
      recipients.map((r) => r.at),
      zones,
      setting,
    );
    return next.map((at, i) => {
      if (at === null) throw failure('quietHoursNeverOpen');
      // Never earlier than asked (a moment inside the window comes back as itself).
      return at.getTime() < recipients[i].at.getTime() ? recipients[i].at : at;
    });
  }
}

function fail(condition: 'quietHoursTimeInvalid', field: string): never {
  throw failure(condition, field);
}

function toView(row: QuietHoursRow): QuietHoursView {
  return {
    status: 'complete',
    enabled: row.enabled,
    allowed_from: clock(row.allowed_from),
    allowed_until: clock(row.allowed_until),
    days: row.days.map((d) => DAY_NAMES[d - 1]),
    skip_dates: row.skip_dates,
    zone_field: row.zone_field,
  };
}
