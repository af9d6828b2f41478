import { normaliseEmail } from '../../../src/users/email';
import { checkNewPassword } from '../../../src/users/password-policy';
import { sessionExpired, sessionNeedsTouch } from '../../../src/users/session-expiry';
import { secondsUntil, throttledUntil, waitText } from '../../../src/users/sign-in-throttle';

const at = (minutes: number) => new Date(Date.UTC(2030, 0, 1, 0, 0, 0) + minutes * 60_000);

describe(throttledUntil.name, () => {
  const policy = { freeFailures: 5, windowMs: 15 * 60_000, firstWaitMs: 30_000, maxWaitMs: 15 * 60_000 };
  const seconds = (n: number) => new Date(at(0).getTime() + n * 1000);

  it('lets tries through with fewer failures than the free ones in the window', () => {
    expect(throttledUntil([at(0), at(1), at(2), at(3)], at(4), policy)).toBeNull();
    // Five failures, but the first left the window at minute 15.
    expect(throttledUntil([at(0), at(1), at(2), at(3), at(4)], at(15), policy)).toBeNull();
  });

  it('waits from the latest failure, 30 s after the fifth and doubling with each further one, never past the maximum', () => {
    expect(throttledUntil([seconds(4), seconds(0), seconds(2), seconds(1), seconds(3)], seconds(5), policy)).toEqual(seconds(34));
    expect(throttledUntil([seconds(0), seconds(1), seconds(2), seconds(3), seconds(4)], seconds(34), policy)).toBeNull();
    expect(throttledUntil([0, 1, 2, 3, 4, 5].map(seconds), seconds(6), policy)).toEqual(seconds(65));
    expect(throttledUntil([0, 1, 2, 3, 4, 5, 6].map(seconds), seconds(7), policy)).toEqual(seconds(126));
    expect(
      throttledUntil(
        Array.from({ length: 20 }, (_, i) => seconds(i)),
        seconds(20),
        policy,
      ),
    ).toEqual(seconds(19 + 15 * 60));
  });

  it('says the wait in seconds under a minute, else whole minutes', () => {
    expect(secondsUntil(seconds(30), seconds(0))).toBe(30);
    expect(secondsUntil(seconds(0), seconds(0))).toBe(1);
    expect([1, 30, 60, 61, 900].map(waitText)).toEqual(['1 second', '30 seconds', '1 minute', '2 minutes', '15 minutes']);
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
