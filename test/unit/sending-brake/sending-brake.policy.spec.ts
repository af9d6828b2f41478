import { brakeLimits, brakeWindow, fits } from '../../../src/sending-brake/sending-brake.policy';

const H = 3_600_000;
const T0 = Date.UTC(2030, 0, 15, 10, 0, 0);
const limits = brakeLimits({ sendingBrakeAllowance: 1000, sendingBrakeMultiplier: 10, sendingBrakeHalfLifeHours: 168 });
const stored = (over: Partial<{ hourStart: Date; hourCount: number; previousCount: number; baseline: number }> = {}) => ({
  hourStart: new Date(T0),
  hourCount: 0,
  previousCount: 0,
  baseline: 0,
  ...over,
});

describe('sending brake policy', () => {
  it('places now in its clock hour', () => {
    expect(brakeWindow(new Date(T0 + 15 * 60_000))).toEqual({ hourStart: new Date(T0), fraction: 0.25 });
  });

  it('admits a new account up to its starting allowance and not one message more', () => {
    const at = brakeWindow(new Date(T0 + 60_000));
    expect(fits(stored({ hourCount: 999 }), 1, at, limits)).toEqual({ fits: true, lastHour: 999, limit: 1000 });
    expect(fits(stored({ hourCount: 999 }), 2, at, limits).fits).toBe(false);
  });

  it('counts the part of the previous hour still inside the last 60 minutes', () => {
    // 45 minutes in: a quarter of the previous hour's 800 is still in the window.
    const at = brakeWindow(new Date(T0 + 45 * 60_000));
    expect(fits(stored({ hourCount: 100, previousCount: 800 }), 700, at, limits)).toEqual({ fits: true, lastHour: 300, limit: 1000 });
    expect(fits(stored({ hourCount: 100, previousCount: 800 }), 701, at, limits).fits).toBe(false);
  });

  it('rolls the stored hour forward: its count becomes the previous hour and, if busier, the baseline', () => {
    const next = brakeWindow(new Date(T0 + H + 30 * 60_000));
    const result = fits(stored({ hourCount: 900, baseline: 200 }), 0, next, limits);
    expect(result).toEqual({ fits: true, lastHour: 450, limit: 9000 });
    // Two hours on, nothing of it is in the last hour any more, but the baseline keeps it.
    expect(fits(stored({ hourCount: 900 }), 0, brakeWindow(new Date(T0 + 2 * H)), limits)).toEqual({ fits: true, lastHour: 0, limit: 9000 });
  });

  it('lets the baseline fade by half each half-life, never below the starting allowance', () => {
    const weekLater = brakeWindow(new Date(T0 + 168 * H));
    expect(fits(stored({ hourStart: new Date(T0), baseline: 500 }), 0, weekLater, limits).limit).toBeCloseTo(2500, 6);
    expect(fits(stored({ hourStart: new Date(T0), baseline: 50 }), 0, weekLater, limits).limit).toBe(1000);
  });
});
