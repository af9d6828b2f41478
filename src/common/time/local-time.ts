import { failure } from '../errors/error-catalogue';
import { formatLocalParts } from './format';

const DAY_MS = 86_400_000;
const LAST_DAY = '9999-12-31';

const wallFormats = new Map<string, Intl.DateTimeFormat>();

function wallFormat(timeZone: string): Intl.DateTimeFormat {
  let format = wallFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-AU', {
      timeZone,
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
      hourCycle: 'h23',
    });
    wallFormats.set(timeZone, format);
  }
  return format;
}

/** How far `timeZone`'s clocks are ahead of UTC at the instant `ms` (AEDT: +11 h), in milliseconds. */
export function zoneOffsetMs(ms: number, timeZone: string): number {
  const part: Record<string, number> = {};
  for (const { type, value } of wallFormat(timeZone).formatToParts(new Date(ms))) part[type] = Number(value);
  const wall = Date.UTC(part.year, part.month - 1, part.day, part.hour, part.minute, part.second);
  return wall - Math.floor(ms / 1000) * 1000;
}

export interface WallTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
}

/**
 * The instants at which clocks in `timeZone` show this wall time: one on an ordinary day, none in the
 * hour skipped when daylight saving starts, two in the hour repeated when it ends (earlier first).
 * Offsets are looked up a day either side, which holds while a zone changes its offset at most once a
 * day (true of every Australian zone).
 */
export function instantsOfWallTime(wall: WallTime, timeZone: string): Date[] {
  const wallMs = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute);
  const offsets = new Set([zoneOffsetMs(wallMs - DAY_MS, timeZone), zoneOffsetMs(wallMs, timeZone), zoneOffsetMs(wallMs + DAY_MS, timeZone)]);
  const instants = [...offsets].map((offset) => wallMs - offset).filter((ms) => zoneOffsetMs(ms, timeZone) === wallMs - ms);
  return [...new Set(instants)].sort((a, b) => a - b).map((ms) => new Date(ms));
}

export type LocalTimeParse = { ok: true; at: Date } | { ok: false; reason: 'invalid' | 'skipped' };

const DAY_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME_RE = /^(\d{2}):(\d{2})(?::(\d{2}))?$/;

function dayParts(day: string): { year: number; month: number; day: number } | null {
  const m = DAY_RE.exec(day);
  if (!m) return null;
  const [year, month, date] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const check = new Date(Date.UTC(2000, month - 1, date));
  check.setUTCFullYear(year);
  if (year < 1 || check.getUTCFullYear() !== year || check.getUTCMonth() !== month - 1 || check.getUTCDate() !== date) return null;
  return { year, month, day: date };
}

/**
 * A date and time typed on a page (`YYYY-MM-DD`, `HH:MM`), read as the clocks of `timeZone` show it.
 * A time in the hour skipped when daylight saving starts does not exist there (`skipped`); a time in
 * the hour repeated when it ends is its first occurrence (still daylight time), which the page then
 * shows with its zone abbreviation.
 */
export function parseLocalDateTime(day: string, time: string, timeZone: string): LocalTimeParse {
  const date = dayParts(day.trim());
  const t = TIME_RE.exec(time.trim());
  if (!date || !t) return { ok: false, reason: 'invalid' };
  const [hour, minute] = [Number(t[1]), Number(t[2])];
  if (hour > 23 || minute > 59 || Number(t[3] ?? 0) > 59) return { ok: false, reason: 'invalid' };
  const instants = instantsOfWallTime({ ...date, hour, minute }, timeZone);
  if (instants.length === 0) return { ok: false, reason: 'skipped' };
  return { ok: true, at: instants[0] };
}

/** When a local day (`YYYY-MM-DD`) starts in `timeZone` (its first instant: midnight, or the first time after a skipped midnight). */
export function startOfLocalDay(day: string, timeZone: string): Date | null {
  const date = dayParts(day);
  if (!date) return null;
  // Australian zones change at 02:00 or 03:00, but a zone that skips midnight starts its day an hour later.
  for (let minutes = 0; minutes < 24 * 60; minutes += 30) {
    const [first] = instantsOfWallTime({ ...date, hour: Math.floor(minutes / 60), minute: minutes % 60 }, timeZone);
    if (first) return first;
  }
  return null;
}

/** The local day (`YYYY-MM-DD`) an instant falls on in `timeZone`. */
export function localDayOf(date: Date, timeZone: string): string {
  return new Date(date.getTime() + zoneOffsetMs(date.getTime(), timeZone)).toISOString().slice(0, 10);
}

/** The calendar day `days` after `day` (negative: before). */
export function addDays(day: string, days: number): string {
  const date = dayParts(day);
  if (!date) throw new RangeError(`not a day: ${day}`);
  return new Date(Date.UTC(date.year, date.month - 1, date.day) + days * DAY_MS).toISOString().slice(0, 10);
}

/** Every day from `from` to `to`, both included. */
export function daysBetween(from: string, to: string): string[] {
  const days: string[] = [];
  for (let day = from; day <= to; day = addDays(day, 1)) days.push(day);
  return days;
}

/**
 * `from`/`to` days typed on a page (both inclusive) as a half-open range of instants, each day read in
 * `timeZone`; the same 400 texts as the API's UTC day filters.
 */
export function parseLocalDayRange(from: string, to: string, timeZone: string): { from?: Date; toExclusive?: Date } {
  const range: { from?: Date; toExclusive?: Date } = {};
  if (from !== '') {
    const start = dayParts(from) ? startOfLocalDay(from, timeZone) : null;
    if (!start) throw failure('invalidDate', 'from');
    range.from = start;
  }
  if (to !== '') {
    if (!dayParts(to)) throw failure('invalidDate', 'to');
    // The last day a filter can name leaves the range open above (as the API's day filters do).
    if (to !== LAST_DAY) range.toExclusive = startOfLocalDay(addDays(to, 1), timeZone)!;
  }
  return range;
}

/** `time`'s minute of the wall clock in `timeZone`, as the value of an `<input type="time">` (`HH:MM`). */
export function localTimeOfDay(date: Date, timeZone: string): string {
  return new Date(date.getTime() + zoneOffsetMs(date.getTime(), timeZone)).toISOString().slice(11, 16);
}

/** Every zone's offset changes on a quarter hour of UTC (Lord Howe's at :30), so a quarter hour shares one offset. */
const QUARTER_HOUR_MS = 900_000;

/**
 * formatLocal (`2026-01-05 09:30:00 AEDT`) for many instants, such as an export's rows: the zone's
 * offset and abbreviation are looked up once per quarter hour instead of per instant.
 */
export class LocalClock {
  private slot = Number.NaN;
  private offset = 0;
  private abbreviation = '';

  constructor(private readonly timeZone: string) {}

  format(date: Date): string {
    const ms = date.getTime();
    const slot = Math.floor(ms / QUARTER_HOUR_MS);
    if (slot !== this.slot) {
      this.slot = slot;
      this.offset = zoneOffsetMs(ms, this.timeZone);
      this.abbreviation = formatLocalParts(date, this.timeZone).zone;
    }
    return `${new Date(ms + this.offset).toISOString().slice(0, 19).replace('T', ' ')} ${this.abbreviation}`;
  }
}
