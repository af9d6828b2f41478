import { deliveryTimeline, MAX_BARS } from '../../../src/dashboard/campaigns/delivery-timeline';

const at = (iso: string) => new Date(iso);

describe(deliveryTimeline.name, () => {
  it('answers nothing when no message reached an outcome', () => {
    expect(deliveryTimeline([], 10, 'Australia/Sydney')).toBeNull();
  });

  it('puts outcomes of a short send in one-minute bars, each the share delivered by its end, with empty minutes between', () => {
    const timeline = deliveryTimeline(
      [
        { minute: at('2026-11-20T00:00:00Z'), delivered: 2, failed: 0 },
        { minute: at('2026-11-20T00:02:00Z'), delivered: 1, failed: 1 },
      ],
      4,
      'Australia/Sydney',
    )!;
    expect(timeline.interval).toBe('minute');
    expect(timeline.bars.map((b) => [b.label, b.value, b.shown])).toEqual([
      ['11:00', 50, '50%'],
      ['11:01', 50, '50%'],
      ['11:02', 75, '75%'],
    ]);
    expect(timeline.rows).toEqual([
      { from: '2026-11-20 11:00:00 AEDT', delivered: 2, failed: 0, deliveredByThen: '50%', rateByThen: '100%' },
      { from: '2026-11-20 11:01:00 AEDT', delivered: 0, failed: 0, deliveredByThen: '50%', rateByThen: '100%' },
      { from: '2026-11-20 11:02:00 AEDT', delivered: 1, failed: 1, deliveredByThen: '75%', rateByThen: '75%' },
    ]);
  });

  it('widens the bars so a long send fits in at most MAX_BARS, labelling them with the day when it spans more than one', () => {
    const timeline = deliveryTimeline(
      [
        { minute: at('2026-11-20T00:07:00Z'), delivered: 1, failed: 0 },
        { minute: at('2026-11-21T20:59:00Z'), delivered: 1, failed: 0 },
      ],
      2,
      'Australia/Adelaide',
    )!;
    // From the 00:00 UTC hour to the 20:00 UTC hour the next day: 45 hourly bars, within the cap (minutes and quarter hours are not).
    expect(timeline.interval).toBe('hour');
    expect(timeline.bars.length).toBeLessThanOrEqual(MAX_BARS);
    expect(timeline.bars).toHaveLength(45);
    // Adelaide is UTC+10:30 in November: an hour bar starting on the UTC hour starts at half past there.
    expect(timeline.rows[0].from).toBe('2026-11-20 10:30:00 ACDT');
    expect(timeline.bars[0].label).toBe('20 10:30');
    expect(timeline.bars[44]).toEqual({ label: '22 06:30', value: 100, shown: '100%' });
  });
});
