import { normaliseEmail } from '../../../src/users/email';
import { checkNewPassword } from '../../../src/users/password-policy';
import { sessionExpired, sessionNeedsTouch } from '../../../src/users/session-expiry';
import { minutesUntil, throttledUntil } from '../../../src/users/sign-in-throttle';

const at = (minutes: number) => new Date(Date.UTC(2030, 0, 1, 0, 0, 0) + minutes * 60_000);

describe(throttledUntil.name, () => {
  it('lets tries through with fewer than 5 failures in the last 15 minutes', () => {
    expect(throttledUntil([at(0), at(1), at(2), at(3)], at(4))).toBeNull();
    // Five failures, but the first left the window at minute 15.
    expect(throttledUntil([at(0), at(1), at(2), at(3), at(4)], at(15))).toBeNull();
  });

  it('holds tries after the fifth failure until enough of them age out', () => {
    expect(throttledUntil([at(4), at(0), at(2), at(1), at(3)], at(5))).toEqual(at(15));
    expect(throttledUntil([at(0), at(1), at(2), at(3), at(4), at(5), at(6)], at(7))).toEqual(at(17));
    expect(minutesUntil(at(15), at(5))).toBe(10);
    expect(minutesUntil(at(15), new Date(at(15).getTime() - 1000))).toBe(1);
  });
});

describe(sessionExpired.name, () => {
  const HOUR = 60;
  it('ends a session 12 hours after its last request', () => {
    expect(sessionExpired({ createdAt: at(0), lastSeenAt: at(0) }, at(12 * HOUR - 1))).toBe(false);
    expect(sessionExpired({ createdAt: at(0), lastSeenAt: at(0) }, at(12 * HOUR))).toBe(true);
  });

  it('ends a session 7 days after sign-in whatever its activity', () => {
    expect(sessionExpired({ createdAt: at(0), lastSeenAt: at(7 * 24 * HOUR - 2) }, at(7 * 24 * HOUR - 1))).toBe(false);
    expect(sessionExpired({ createdAt: at(0), lastSeenAt: at(7 * 24 * HOUR - 1) }, at(7 * 24 * HOUR))).toBe(true);
  });

  it('writes last_seen_at at most once a minute', () => {
    expect(sessionNeedsTouch({ lastSeenAt: at(0) }, new Date(at(1).getTime() - 1))).toBe(false);
    expect(sessionNeedsTouch({ lastSeenAt: at(0) }, at(1))).toBe(true);
  });
});

describe(normaliseEmail.name, () => {
  it.each([
    ['  Pat.Smith@Example.COM.au ', 'pat.smith@example.com.au'],
    ['a@b.co', 'a@b.co'],
    ['no-at-sign', null],
    ['two@@example.com', null],
    ['spaces in@example.com', null],
    ['nodot@localhost', null],
    [`${'x'.repeat(250)}@e.au`, null],
  ])('%j → %j', (text, expected) => {
    expect(normaliseEmail(text)).toBe(expected);
  });
});

describe(checkNewPassword.name, () => {
  it('wants 12 to 256 characters, counted as characters, and the same twice', () => {
    expect(() => checkNewPassword('elevenchars', 'elevenchars')).toThrow('Passwords must be at least 12 characters');
    expect(() => checkNewPassword('twelve chars', 'twelve chars')).not.toThrow();
    expect(() => checkNewPassword('🔑'.repeat(11), '🔑'.repeat(11))).toThrow('Passwords must be at least 12 characters');
    expect(() => checkNewPassword('x'.repeat(257), 'x'.repeat(257))).toThrow('Passwords must be at most 256 characters');
    expect(() => checkNewPassword('twelve chars', 'twelve charz')).toThrow('The two passwords do not match');
  });
});
