import { failure } from '../errors/error-catalogue';

const DAY_MS = 86_400_000;

/** A `YYYY-MM-DD` day as its UTC midnight, or null when it is not a real date. */
export function parseDay(value: string): Date | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return null;
  const date = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return date.getUTCFullYear() === Number(m[1]) && date.getUTCMonth() === Number(m[2]) - 1 && date.getUTCDate() === Number(m[3]) ? date : null;
}

/** `from`/`to` day filters (UTC, both inclusive) as a half-open range; 400 with the interface's texts. */
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
    range.toExclusive = new Date(day.getTime() + DAY_MS);
  }
  return range;
}
