import { crossedThresholds } from '../../../src/billing/balance-crossings';

describe(crossedThresholds.name, () => {
  const both = { recharge: 1000, warning: 500 };

  it('names a threshold when the balance goes from at or above it to below it', () => {
    expect(crossedThresholds(1000, 999, both)).toEqual([{ kind: 'recharge', threshold: 1000 }]);
    expect(crossedThresholds(1200, 400, both)).toEqual([
      { kind: 'recharge', threshold: 1000 },
      { kind: 'warning', threshold: 500 },
    ]);
  });

  it('names none while the balance stays on one side, or for a threshold that is off', () => {
    expect(crossedThresholds(1100, 1000, both)).toEqual([]);
    expect(crossedThresholds(900, 800, both)).toEqual([]);
    expect(crossedThresholds(1200, 400, { recharge: null, warning: null })).toEqual([]);
  });
});
