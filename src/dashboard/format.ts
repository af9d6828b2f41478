import { hundredthsToFixed } from '../billing/money';
import { formatLocal, parseUtcTimestamp } from '../common/time/format';
import { localDayOf } from '../common/time/local-time';

/**
 * How the pages write values: times in the account's zone with its abbreviation, one format on every
 * page and export (`2026-01-05 09:30:00 AEDT`; the API keeps UTC), credits and dollars with two decimals.
 */
export const show = {
  time: (date: Date | null | undefined, timeZone: string): string => (date ? formatLocal(date, timeZone) : ''),
  /** An API timestamp (UTC `YYYY-MM-DD HH:MM:SS`) as the account reads it. */
  apiTime: (text: string | null | undefined, timeZone: string): string => (text ? formatLocal(parseUtcTimestamp(text), timeZone) : ''),
  /** The account's calendar day of a moment (`2026-01-05`). */
  day: (date: Date | null | undefined, timeZone: string): string => (date ? localDayOf(date, timeZone) : ''),
  credits: (hundredths: number): string => hundredthsToFixed(hundredths),
  /** AUD cents as dollars: 50000 → 500.00. */
  dollars: (cents: number): string => hundredthsToFixed(cents),
};

/** How a page names the account's zone beside a date or time input: `Sydney time`. */
export function zoneLabel(timeZone: string): string {
  return `${timeZone.slice(timeZone.lastIndexOf('/') + 1).replace(/_/g, ' ')} time`;
}

/** Links to the previous and next page of a list, keeping its filters. */
export function pager(path: string, filters: Record<string, string>, page: { limit: number; offset: number }, total: number, shown: number) {
  if (total === 0) return null;
  const link = (offset: number) => {
    const query = new URLSearchParams({ ...Object.fromEntries(Object.entries(filters).filter(([, v]) => v !== '')), offset: String(offset) });
    return `${path}?${query.toString()}`;
  };
  return {
    summary: `${page.offset + 1}–${page.offset + shown} of ${total}`,
    previous: page.offset > 0 ? link(Math.max(0, page.offset - page.limit)) : undefined,
    next: page.offset + shown < total ? link(page.offset + page.limit) : undefined,
  };
}
