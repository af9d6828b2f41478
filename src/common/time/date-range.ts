import { failure } from '../errors/error-catalogue';

const DAY_MS = 86_400_000;
/** The last day a filter can name: `YYYY-MM-DD` has four year digits, and the day after it would not. */
const LAST_DAY = '9999-12-31';

/**
 * A `YYYY-MM-DD` day (years 0001-9999, what both the format and PostgreSQL represent) as its UTC
 * midnight, or null when it is not a real date.
 */
export function parseDay(value: string): Date | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return null;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (year < 1) return null;
  // setUTCFullYear, not Date.UTC: Date.UTC reads years 0-99 as 1900-1999.
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day ? date : null;
}

/**
 * `from`/`to` day filters (UTC, both inclusive) as a half-open range; 400 with the interface's texts.
 * `to=9999-12-31` leaves the range open above: the day after it has no four-digit year, and nothing
 * stored can be later anyway.
 */
export function parseDayRange(from: string | undefined, to: string | undefined): { from?: Date; toExclusive?: Date } {
  const range: { from?: Date; toExclusive?: Date } = {};
  if (from !== undefined && from !== '') {
    const day = parseDay(from);
    if (!day) throw failure('invalidDate', 'from');
    range.from = day;
  }
  if (to !== undefined && to !== '') {
    const day = parseDay(to);
    if (!day) throw failure('invalidDate', 'to');
    if (to !== LAST_DAY) range.toExclusive = new Date(day.getTime() + DAY_MS);
  }
  return range;
}
