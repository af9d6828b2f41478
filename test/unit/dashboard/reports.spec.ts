import { readReportPeriod } from '../../../src/dashboard/reports/report-period';
import { barChart, niceMax } from '../../../src/dashboard/reports/svg-chart';
import { csvField, csvText } from '../../../src/common/csv/csv-cell';
import { creditsText } from '../../../src/messaging/message-export.csv';

describe(barChart.name, () => {
  it('places one bar per value on a round scale, each with its tooltip, labelling the axis sparsely', () => {
    const chart = barChart({
      id: 'sent',
      title: 'Sent per day',
      description: 'Three days',
      bars: [
        { label: '11-20', value: 3, shown: '3' },
        { label: '11-21', value: 0, shown: '0' },
        { label: '11-22', value: 7, shown: '7 messages' },
      ],
    });
    expect(chart.grid.map((g) => g.label)).toEqual(['0', '5', '10']);
    expect(chart.bars.map((b) => [b.tooltip, b.height])).toEqual([
      ['11-20: 3', '51.6'],
      ['11-21: 0', '0.0'],
      ['11-22: 7 messages', '120.4'],
    ]);
    expect(chart.bars.every((b) => Number(b.y) + Number(b.height) === chart.axis.y)).toBe(true);
    expect(chart.empty).toBeNull();
    const month = barChart({ id: 'm', title: 'T', description: 'D', bars: Array.from({ length: 31 }, (_, i) => ({ label: `d${i}`, value: i, shown: String(i) })) });
    expect(month.bars.filter((b) => b.label).map((b) => b.label)).toEqual(['d0', 'd4', 'd8', 'd12', 'd16', 'd20', 'd24', 'd28']);
  });

  it('says so when there is nothing to draw, and caps a rate at its own maximum', () => {
    expect(barChart({ id: 'x', title: 'T', description: 'D', bars: [] }).empty).not.toBeNull();
    expect(barChart({ id: 'r', title: 'T', description: 'D', bars: [{ label: 'a', value: 50, shown: '50%' }], max: 100 }).grid.map((g) => g.label)).toEqual(['0', '50', '100']);
  });

  it('rounds the scale up to 1, 2 or 5 times a power of ten', () => {
    expect([0, 1, 3, 7, 12, 99, 101, 0.3].map(niceMax)).toEqual([1, 1, 5, 10, 20, 100, 200, 0.5]);
  });
});

describe(readReportPeriod.name, () => {
  const now = new Date('2026-11-27T00:00:00Z'); // 11:00 on the 27th in Sydney

  it('defaults to the last 30 days of the account’s calendar, today included', () => {
    const period = readReportPeriod({}, 'Australia/Sydney', now);
    expect([period.fromDay, period.toDay, period.days.length]).toEqual(['2026-10-29', '2026-11-27', 30]);
    expect(period.from).toEqual(new Date('2026-10-28T13:00:00Z'));
    expect(period.toExclusive).toEqual(new Date('2026-11-27T13:00:00Z'));
  });

  it('reads days across a daylight saving change on the account’s clocks', () => {
    const period = readReportPeriod({ from: '2026-10-04', to: '2026-10-04' }, 'Australia/Sydney', now);
    // The day daylight saving starts has 23 hours.
    expect(period.toExclusive.getTime() - period.from.getTime()).toBe(23 * 3_600_000);
  });

  it('refuses a backwards or over-long period', () => {
    expect(() => readReportPeriod({ from: '2026-11-02', to: '2026-11-01' }, 'Australia/Perth', now)).toThrow('The first day must not be after the last day');
    expect(() => readReportPeriod({ from: '2025-11-01', to: '2026-11-02' }, 'Australia/Perth', now)).toThrow('A report covers at most 366 days');
    expect(readReportPeriod({ from: '2025-11-02', to: '2026-11-02' }, 'Australia/Perth', now).days).toHaveLength(366);
  });

  it('refuses a last day that is no day by name, with or without a first day', () => {
    expect(() => readReportPeriod({ to: '2026-13-01' }, 'Australia/Perth', now)).toThrow('Invalid to date; expected format YYYY-MM-DD');
    expect(() => readReportPeriod({ from: '2026-11-01', to: 'soon' }, 'Australia/Perth', now)).toThrow('Invalid to date; expected format YYYY-MM-DD');
  });
});

describe('export CSV fields', () => {
  it('quotes commas, quotes and line breaks, and defuses formulas in text people wrote', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,"b"\nc')).toBe('"a,""b""\nc"');
    expect(csvText('=SUM(A1)')).toBe("'=SUM(A1)");
    expect(csvText('-5, ok')).toBe(`"'-5, ok"`);
    expect(csvText(null)).toBe('');
  });

  it('writes hundredths as credits without floating point', () => {
    expect(['0', '5', '100', '12345', '-250', '900719925474099100'].map(creditsText)).toEqual(['0.00', '0.05', '1.00', '123.45', '-2.50', '9007199254740991.00']);
  });
});
