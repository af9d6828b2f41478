import { MAX_SCHEDULE_AHEAD_MS, parseScheduledFor, staggerOffsetsMs } from '../../../../src/common/time/schedule';

const now = new Date('2026-11-21T06:00:00Z');

describe(parseScheduledFor.name, () => {
  it.each([
    ['2026-12-01T09:30:00', '2026-12-01T09:30:00.000Z'],
    ['2026-12-01 09:30:00', '2026-12-01T09:30:00.000Z'],
    ['2026-12-01T09:30', '2026-12-01T09:30:00.000Z'],
    ['2026-12-01T09:30:00.250Z', '2026-12-01T09:30:00.250Z'],
    ['2026-12-01T09:30:00+00:00', '2026-12-01T09:30:00.000Z'],
    ['2026-12-01T19:30:00+10:00', '2026-12-01T09:30:00.000Z'],
    ['2026-12-01T04:00:00-0530', '2026-12-01T09:30:00.000Z'],
  ])('reads %s as UTC %s', (input, expected) => {
    expect(parseScheduledFor(input, now)).toEqual({ ok: true, at: new Date(expected) });
  });

  it('treats absent, null and empty as not scheduled', () => {
    for (const v of [undefined, null, '']) expect(parseScheduledFor(v, now)).toEqual({ ok: true, at: null });
  });

  it('sends a time not in the future now', () => {
    expect(parseScheduledFor('2026-11-21T06:00:00', now)).toEqual({ ok: true, at: null });
    expect(parseScheduledFor('2020-01-01T00:00:00', now)).toEqual({ ok: true, at: null });
  });

  it('allows exactly 365 days ahead and refuses a millisecond more', () => {
    const limit = new Date(now.getTime() + MAX_SCHEDULE_AHEAD_MS).toISOString();
    expect(parseScheduledFor(limit, now)).toEqual({ ok: true, at: new Date(limit) });
    expect(parseScheduledFor(new Date(now.getTime() + MAX_SCHEDULE_AHEAD_MS + 1).toISOString(), now)).toEqual({ ok: false });
  });

  it.each(['2026-12-01', '2026-02-29T10:00:00', '2026-04-31T10:00:00', '2026-12-01T24:00:00', '2026-12-01T10:60', 'tomorrow', '2026-12-01T10:00:00+15:00', 20261201, {}, true])(
    'refuses %p',
    (input) => {
      expect(parseScheduledFor(input, now)).toEqual({ ok: false });
    },
  );
});

describe(staggerOffsetsMs.name, () => {
  it('spreads n messages evenly over the window, the first at the start', () => {
    expect(Array.from(staggerOffsetsMs(4, 60))).toEqual([0, 15, 30, 45].map((m) => m * 60_000));
    expect(Array.from(staggerOffsetsMs(1, 10))).toEqual([0]);
  });
});
