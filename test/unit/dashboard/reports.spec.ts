import { readReportPeriod } from '../../../src/dashboard/reports/report-period';
import { barChartSvg, niceMax, xmlText } from '../../../src/dashboard/reports/svg-chart';
import { creditsText, csvField, csvText } from '../../../src/messaging/message-export.csv';

describe(barChartSvg.name, () => {
  it('draws one bar per value on a round scale, named by its title and description, with every text escaped', () => {
    const svg = barChartSvg({
      id: 'sent',
      title: 'Sent <per> day',
      description: 'Three days & more',
      bars: [
        { label: '11-20', value: 3, shown: '3' },
        { label: '11-21', value: 0, shown: '0' },
        { label: '<b>', value: 7, shown: '7 "x"' },
      ],
    });
    expect(svg).toMatch(/^<svg class="chart" viewBox="0 0 640 220" role="img" aria-labelledby="sent-title sent-desc"/);
    expect(svg).toContain('<title id="sent-title">Sent &lt;per&gt; day</title><desc id="sent-desc">Three days &amp; more</desc>');
    expect(svg.match(/<rect /g)).toHaveLength(3);
    expect(svg).toContain('<title>&lt;b&gt;: 7 &quot;x&quot;</title>');
    expect(svg).toContain('>10</text>');
    expect(svg).not.toMatch(/style=|<script/);
  });

  it('says so when there is nothing to draw', () => {
    expect(barChartSvg({ id: 'x', title: 'T', description: 'D', bars: [] })).toContain('No data for this period');
  });

  it('rounds the scale up to 1, 2 or 5 times a power of ten', () => {
    expect([0, 1, 3, 7, 12, 99, 101, 0.3].map(niceMax)).toEqual([1, 1, 5, 10, 20, 100, 200, 0.5]);
    expect(xmlText(`<&>"'`)).toBe('&lt;&amp;&gt;&quot;&#39;');
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
