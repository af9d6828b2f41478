import { limitedUntil } from '../../../src/signup/sign-up-throttle';

const at = (minutes: number) => new Date(Date.UTC(2026, 10, 27, 0, minutes));

describe(limitedUntil.name, () => {
  it('lets tries through while fewer than the maximum fall inside the window', () => {
    expect(limitedUntil([at(0), at(10)], at(20), 3, 60 * 60_000)).toBeNull();
  });

  it('answers when the oldest try that counts leaves the window, whatever the order given', () => {
    expect(limitedUntil([at(30), at(10), at(20)], at(40), 3, 60 * 60_000)).toEqual(at(70));
  });

  it('forgets tries older than the window', () => {
    expect(limitedUntil([at(0), at(10), at(20)], at(61), 3, 60 * 60_000)).toBeNull();
  });
});
