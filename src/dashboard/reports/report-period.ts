import { failure } from '../../common/errors/error-catalogue';
import { addDays, daysBetween, localDayOf, parseLocalDayRange } from '../../common/time/local-time';

/** A chart has a bar a day: a year of them still reads. */
export const MAX_REPORT_DAYS = 366;
/** The period shown when none is chosen: the last 30 days, today included. */
export const DEFAULT_REPORT_DAYS = 30;

export interface ChosenPeriod {
  fromDay: string;
  toDay: string;
  from: Date;
  toExclusive: Date;
  days: string[];
}

/** The `from`/`to` days of the reports page (both included, on the account's calendar); today's last 30 days when absent. */
export function readReportPeriod(query: Record<string, unknown>, timeZone: string, now: Date): ChosenPeriod {
  const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');
  const toDay = text(query.to) || localDayOf(now, timeZone);
  // A `to` that is no day is refused by name before the default `from` is counted back from it.
  parseLocalDayRange('', toDay, timeZone);
  const fromDay = text(query.from) || addDays(toDay, 1 - DEFAULT_REPORT_DAYS);
  const range = parseLocalDayRange(fromDay, toDay, timeZone);
  if (fromDay > toDay) throw failure('reportPeriodOrder');
  const days = daysBetween(fromDay, toDay.length === 10 && toDay <= addDays(fromDay, MAX_REPORT_DAYS) ? toDay : addDays(fromDay, MAX_REPORT_DAYS));
  if (days.length > MAX_REPORT_DAYS) throw failure('reportPeriodTooLong', MAX_REPORT_DAYS);
  return { fromDay, toDay, from: range.from!, toExclusive: range.toExclusive!, days };
}
