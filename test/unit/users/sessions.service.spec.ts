import { SessionsService } from '../../../src/users/sessions.service';
import type { SessionRecord, SessionsRepository } from '../../../src/users/sessions.repository';
import { digestOf } from '../../../src/users/secret-token';
import { FakeClock } from '../fakes/fake-clock';

const HOUR = 3_600_000;
const SIGNED_IN = new Date('2030-03-01T00:00:00Z');

function session(lastSeenAt: Date): SessionRecord {
  return {
    sessionId: 5,
    createdAt: SIGNED_IN,
    lastSeenAt,
    userId: 7,
    accountId: 3,
    accountName: 'Acme',
    accountIsTest: false,
    accountTimeZone: 'Australia/Sydney',
    email: 'pat@example.com.au',
    name: '',
    isOwner: false,
    permissions: [],
    accountRequiresTwoFactor: false,
    twoFactorOn: false,
    sendingPausedAt: null,
  };
}

describe(SessionsService.name, () => {
  function subject(now: Date, stored: SessionRecord | null) {
    const calls: string[] = [];
    const repo = {
      findByToken: async (digest: Buffer) => (digest.equals(digestOf('the-token')) ? stored : null),
      delete: async (id: number) => void calls.push(`delete ${id}`),
      touch: async (id: number, at: Date, staleBefore: Date) => void calls.push(`touch ${id} ${at.toISOString()} ${staleBefore.toISOString()}`),
      insert: async (_userId: number, digest: Buffer) => {
        calls.push(`insert ${digest.length}`);
        return 9;
      },
    } as unknown as SessionsRepository;
    return { service: new SessionsService(repo, new FakeClock(now)), calls };
  }

  it('stores only the digest of a new token', async () => {
    const { service, calls } = subject(SIGNED_IN, null);
    const { token } = await service.create(7, '10.0.0.1');
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(calls).toEqual(['insert 32']);
  });

  it('knows nothing of a missing or unknown token', async () => {
    const { service, calls } = subject(SIGNED_IN, session(SIGNED_IN));
    expect(await service.resolve(undefined)).toBeNull();
    expect(await service.resolve('another-token')).toBeNull();
    expect(calls).toEqual([]);
  });

  it('resolves a live session, touching it at most once a minute', async () => {
    const seen = new Date(SIGNED_IN.getTime() + HOUR);
    const within = subject(new Date(seen.getTime() + 59_000), session(seen));
    expect((await within.service.resolve('the-token'))?.userId).toBe(7);
    expect(within.calls).toEqual([]);
    const later = subject(new Date(seen.getTime() + 60_000), session(seen));
    await later.service.resolve('the-token');
    expect(later.calls).toEqual([`touch 5 ${new Date(seen.getTime() + 60_000).toISOString()} ${seen.toISOString()}`]);
  });

  it('ends (deletes) a session idle for 12 hours', async () => {
    const { service, calls } = subject(new Date(SIGNED_IN.getTime() + 12 * HOUR), session(SIGNED_IN));
    expect(await service.resolve('the-token')).toBeNull();
    expect(calls).toEqual(['delete 5']);
  });

  it('ends a session 7 days after sign-in even if it was used a moment ago', async () => {
    const now = new Date(SIGNED_IN.getTime() + 7 * 24 * HOUR);
    const { service, calls } = subject(now, session(new Date(now.getTime() - 1000)));
    expect(await service.resolve('the-token')).toBeNull();
    expect(calls).toEqual(['delete 5']);
  });
});
