import { DomainError } from '../../../../src/common/errors/domain-error';
import { formatLocal } from '../../../../src/common/time/format';
import {
  addDays,
  daysBetween,
  instantsOfWallTime,
  localDayOf,
  localTimeOfDay,
  parseLocalDateTime,
  parseLocalDayRange,
  startOfLocalDay,
  zoneOffsetMs,
} from '../../../../src/common/time/local-time';

const SYDNEY = 'Australia/Sydney';
const HOUR = 3_600_000;

/** Sydney in 2026: daylight saving ends 5 April at 03:00 AEDT (clocks back to 02:00), starts 4 October at 02:00 AEST (on to 03:00). */
describe('local time', () => {
  describe(parseLocalDateTime.name, () => {
    it('reads a date and time as the account’s clocks show them', () => {
      const summer = parseLocalDateTime('2026-01-15', '09:30', SYDNEY);
      expect(summer).toEqual({ ok: true, at: new Date('2026-01-14T22:30:00Z') });
      const winter = parseLocalDateTime('2026-07-15', '09:30', SYDNEY);
      expect(winter).toEqual({ ok: true, at: new Date('2026-07-14T23:30:00Z') });
      expect(parseLocalDateTime('2026-07-15', '09:30', 'Australia/Perth')).toEqual({ ok: true, at: new Date('2026-07-15T01:30:00Z') });
    });

    it('reads times either side of the change to daylight saving with the offset each side has', () => {
      expect(parseLocalDateTime('2026-10-04', '01:59', SYDNEY)).toEqual({ ok: true, at: new Date('2026-10-03T15:59:00Z') });
      expect(parseLocalDateTime('2026-10-04', '03:00', SYDNEY)).toEqual({ ok: true, at: new Date('2026-10-03T16:00:00Z') });
    });

    it('refuses a time in the hour skipped when daylight saving starts', () => {
      expect(parseLocalDateTime('2026-10-04', '02:30', SYDNEY)).toEqual({ ok: false, reason: 'skipped' });
      // Lord Howe Island moves its clocks half an hour.
      expect(parseLocalDateTime('2026-10-04', '02:15', 'Australia/Lord_Howe')).toEqual({ ok: false, reason: 'skipped' });
      expect(parseLocalDateTime('2026-10-04', '02:30', 'Australia/Lord_Howe').ok).toBe(true);
    });

    it('takes the first of a time repeated when daylight saving ends (still daylight time), shown as such', () => {
      const repeated = parseLocalDateTime('2026-04-05', '02:30', SYDNEY);
      expect(repeated).toEqual({ ok: true, at: new Date('2026-04-04T15:30:00Z') });
      expect(formatLocal((repeated as { at: Date }).at, SYDNEY)).toBe('2026-04-05 02:30:00 AEDT');
      expect(instantsOfWallTime({ year: 2026, month: 4, day: 5, hour: 2, minute: 30 }, SYDNEY)).toEqual([new Date('2026-04-04T15:30:00Z'), new Date('2026-04-04T16:30:00Z')]);
    });

    it('refuses what is not a date and a time', () => {
      for (const [day, time] of [
        ['2026-02-30', '10:00'],
        ['2026-13-01', '10:00'],
        ['15/01/2026', '10:00'],
        ['2026-01-15', '24:00'],
        ['2026-01-15', '10:60'],
        ['2026-01-15', '10am'],
        ['', '10:00'],
        ['2026-01-15', ''],
      ]) {
        expect(parseLocalDateTime(day, time, SYDNEY)).toEqual({ ok: false, reason: 'invalid' });
      }
    });
  });

  describe('days', () => {
    it('starts a day at the account’s midnight, the same on the days the clocks change', () => {
      expect(startOfLocalDay('2026-10-04', SYDNEY)).toEqual(new Date('2026-10-03T14:00:00Z'));
      expect(startOfLocalDay('2026-10-05', SYDNEY)).toEqual(new Date('2026-10-04T13:00:00Z'));
      expect(startOfLocalDay('2026-04-05', SYDNEY)).toEqual(new Date('2026-04-04T13:00:00Z'));
      expect(startOfLocalDay('2026-04-06', SYDNEY)).toEqual(new Date('2026-04-05T14:00:00Z'));
    });

    it('makes a 23-hour and a 25-hour day of the days daylight saving starts and ends', () => {
      const starts = parseLocalDayRange('2026-10-04', '2026-10-04', SYDNEY);
      expect(starts.toExclusive!.getTime() - starts.from!.getTime()).toBe(23 * HOUR);
      const ends = parseLocalDayRange('2026-04-05', '2026-04-05', SYDNEY);
      expect(ends.toExclusive!.getTime() - ends.from!.getTime()).toBe(25 * HOUR);
    });

    it('reads day filters with the API’s texts, leaving an open end open', () => {
      expect(parseLocalDayRange('', '', SYDNEY)).toEqual({});
      expect(parseLocalDayRange('2026-01-15', '9999-12-31', SYDNEY)).toEqual({ from: new Date('2026-01-14T13:00:00Z') });
      expect(() => parseLocalDayRange('yesterday', '', SYDNEY)).toThrow(new DomainError('invalidDate', 'invalid', 'Invalid from date; expected format YYYY-MM-DD'));
      expect(() => parseLocalDayRange('', '2026-02-30', SYDNEY)).toThrow('Invalid to date; expected format YYYY-MM-DD');
    });

    it('names the account’s day and time of day of an instant', () => {
      expect(localDayOf(new Date('2026-01-14T13:00:00Z'), SYDNEY)).toBe('2026-01-15');
      expect(localDayOf(new Date('2026-01-14T12:59:59Z'), SYDNEY)).toBe('2026-01-14');
      expect(localTimeOfDay(new Date('2026-01-14T22:30:00Z'), SYDNEY)).toBe('09:30');
      expect(zoneOffsetMs(Date.parse('2026-01-15T00:00:00Z'), 'Australia/Adelaide')).toBe(10.5 * HOUR);
    });

    it('counts calendar days, across months and years', () => {
      expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
      expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
      expect(daysBetween('2026-02-27', '2026-03-02')).toEqual(['2026-02-27', '2026-02-28', '2026-03-01', '2026-03-02']);
    });
  });
});
