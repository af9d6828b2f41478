import { AUSTRALIAN_TIME_ZONES, australianTimeZoneOf, isAustralianTimeZone, STATE_TIME_ZONES } from '../../../../src/common/time/australian-time-zones';

describe('australianTimeZoneOf', () => {
  it.each([
    ['NSW', 'Australia/Sydney'],
    [' vic ', 'Australia/Melbourne'],
    ['Qld', 'Australia/Brisbane'],
    ['WA', 'Australia/Perth'],
    ['act', 'Australia/Sydney'],
    ['australia/adelaide', 'Australia/Adelaide'],
    ['Australia/Lord_Howe', 'Australia/Lord_Howe'],
  ])('reads %j as %s', (text, zone) => {
    expect(australianTimeZoneOf(text)).toBe(zone);
  });

  it.each(['', 'Europe/London', 'NZ', 'Sydney'])('answers null for %j', (text) => {
    expect(australianTimeZoneOf(text)).toBeNull();
  });

  it('knows every zone it offers to the runtime', () => {
    for (const zone of AUSTRALIAN_TIME_ZONES) expect(() => new Intl.DateTimeFormat('en-AU', { timeZone: zone })).not.toThrow();
    for (const zone of Object.values(STATE_TIME_ZONES)) expect(isAustralianTimeZone(zone)).toBe(true);
  });
});
