import type { Tx } from '../../../src/database/unit-of-work';
import type { Actor } from '../../../src/users/actor';
import type { AuditLogService } from '../../../src/users/audit-log.service';
import { hashPassword } from '../../../src/users/password-hash';
import type { SessionsService } from '../../../src/users/sessions.service';
import type { SignInFailuresRepository, ThrottleScope } from '../../../src/users/sign-in-failures.repository';
import { SignInService } from '../../../src/users/sign-in.service';
import type { UsersRepository } from '../../../src/users/users.repository';
import '../../support/password-cost';
import { FakeClock } from '../fakes/fake-clock';
import { FakeUnitOfWork, openTx } from '../fakes/fake-unit-of-work';

const NOW = new Date('2030-03-01T00:00:00Z');

// Real scrypt checks, at the tests' cost (password-cost.ts: production's takes seconds each on a busy machine, and
// this file makes about a hundred): the equal-work rule is part of what is tested.

/** Failures kept in memory, keyed by scope and subject digest. */
class FakeFailures implements Pick<SignInFailuresRepository, 'since' | 'record' | 'clear'> {
  readonly rows: Array<{ key: string; at: Date }> = [];
  private key = (s: { scope: ThrottleScope; subject: Buffer }) => `${s.scope}:${s.subject.toString('hex')}`;
  async since(subjects: Array<{ scope: ThrottleScope; subject: Buffer }>, since: Date) {
    return subjects.map((s) => this.rows.filter((r) => r.key === this.key(s) && r.at > since).map((r) => r.at));
  }
  async record(subjects: Array<{ scope: ThrottleScope; subject: Buffer }>, at: Date) {
    for (const s of subjects) this.rows.push({ key: this.key(s), at });
  }
  async clear(scope: ThrottleScope, subject: Buffer) {
    const key = this.key({ scope, subject });
    for (let i = this.rows.length - 1; i >= 0; i--) if (this.rows[i].key === key) this.rows.splice(i, 1);
  }
  count(scope: ThrottleScope) {
    return this.rows.filter((r) => r.key.startsWith(`${scope}:`)).length;
  }
}

describe(SignInService.name, () => {
  let hash: string;
  beforeAll(async () => {
    hash = await hashPassword('right password!');
  });

  function subject(overrides: { passwordHash?: string | null } = {}) {
    const failures = new FakeFailures();
    const sessions: Array<{ userId: number; ip: string }> = [];
    const audits: Array<{ actor: Actor; action: string }> = [];
    const user = {
      id: 7,
      accountId: 3,
      email: 'pat@example.com.au',
      name: '',
      isOwner: false,
      permissions: ['manage_billing'],
      hasPassword: true,
      createdAt: NOW,
      twoFactorOn: false,
      passwordHash: hash,
      ...overrides,
    };
    const users = {
      findByEmailWithHash: async (email: string) => (email === user.email ? user : null),
      findById: async (id: number) => (id === user.id ? user : null),
    } as unknown as UsersRepository;
    const sessionService = {
      create: async (userId: number, ip: string, tx?: Tx) => {
        openTx('SessionsService.create', tx);
        sessions.push({ userId, ip });
        return { token: 'tok', sessionId: 1 };
      },
    } as unknown as SessionsService;
    const audit = {
      record: async (actor: Actor, action: string, _detail: string, tx?: Tx) => {
        openTx('AuditLogService.record', tx);
        audits.push({ actor, action });
      },
    } as unknown as AuditLogService;
    const mails: Array<{ to: string; subject: string; text: string }> = [];
    const mail = { send: async (m: { to: string; subject: string; text: string }) => (mails.push(m), true) };
    const counts = new Map<string, number>();
    const counter = { add: async (key: string) => (counts.set(key, (counts.get(key) ?? 0) + 1), counts.get(key)!) };
    const config = { dashboardUrl: 'https://dash.example' };
    const clock = new FakeClock(NOW);
    // Two-factor off here: the second step has its own tests.
    const twoFactor = { isEnabled: async () => false };
    const challenges = { open: async () => 'challenge' };
    const devices = { recognises: async () => false };
    const service = new SignInService(
      new FakeUnitOfWork() as never,
      users,
      failures as never,
      sessionService,
      audit,
      mail as never,
      counter as never,
      config as never,
      clock,
      twoFactor as never,
      challenges as never,
      devices as never,
    );
    return { service, failures, sessions, audits, mails, clock };
  }

  it('opens a session and records the sign-in, for any capitalisation of the email', async () => {
    const { service, sessions, audits } = subject();
    await expect(service.signIn(' PAT@example.com.au ', 'right password!', '10.0.0.1')).resolves.toEqual({ token: 'tok' });
    expect(sessions).toEqual([{ userId: 7, ip: '10.0.0.1' }]);
    expect(audits.map((a) => [a.actor.email, a.actor.ip, a.action])).toEqual([['pat@example.com.au', '10.0.0.1', 'signed_in']]);
  });

  it.each([
    ['an unknown email', 'nobody@example.com.au', 'right password!', {}],
    ['a wrong password', 'pat@example.com.au', 'wrong password!', {}],
    ['a user without a password yet', 'pat@example.com.au', 'right password!', { passwordHash: null }],
  ])('answers %s with the same error and counts a failure for the pair, the address and the email', async (_, email, password, overrides) => {
    const { service, failures, sessions } = subject(overrides);
    await expect(service.signIn(email, password, '10.0.0.1')).rejects.toThrow('Email or password is incorrect');
    expect([failures.count('pair'), failures.count('ip'), failures.count('email'), sessions.length]).toEqual([1, 1, 1, 0]);
  });

  it('never keeps the real user out for failures from other addresses, however many', async () => {
    const { service, sessions } = subject();
    for (let i = 0; i < 12; i++) await expect(service.signIn('pat@example.com.au', 'wrong password!', `10.0.0.${i}`)).rejects.toThrow('Email or password is incorrect');
    await expect(service.signIn('pat@example.com.au', 'right password!', '10.0.1.1')).resolves.toEqual({ token: 'tok' });
    expect(sessions).toHaveLength(1);
  });

  it('makes one email from one address wait after 5 failures, longer with each further failure, with Retry-After', async () => {
    const { service, clock, sessions } = subject();
    for (let i = 0; i < 5; i++) await expect(service.signIn('pat@example.com.au', 'wrong password!', '10.0.0.1')).rejects.toThrow('Email or password is incorrect');
    const first = await service.signIn('pat@example.com.au', 'right password!', '10.0.0.1').catch((e: unknown) => e as { message: string; retryAfterSeconds: number });
    expect(first).toMatchObject({ message: 'Too many failed sign-ins. Try again in 30 seconds.', retryAfterSeconds: 30 });
    clock.advance(30_000);
    await expect(service.signIn('pat@example.com.au', 'wrong again!', '10.0.0.1')).rejects.toThrow('Email or password is incorrect');
    await expect(service.signIn('pat@example.com.au', 'right password!', '10.0.0.1')).rejects.toThrow('Too many failed sign-ins. Try again in 1 minute.');
    clock.advance(60_000);
    await expect(service.signIn('pat@example.com.au', 'wrong again!', '10.0.0.1')).rejects.toThrow('Email or password is incorrect');
    await expect(service.signIn('pat@example.com.au', 'right password!', '10.0.0.1')).rejects.toThrow('Too many failed sign-ins. Try again in 2 minutes.');
    expect(sessions).toEqual([]);
    clock.advance(120_000);
    await expect(service.signIn('pat@example.com.au', 'right password!', '10.0.0.1')).resolves.toEqual({ token: 'tok' });
  });

  it('lets an address with a few failures for other emails sign in (a shared office address), and slows one with many', async () => {
    const { service } = subject();
    for (let i = 0; i < 10; i++) await expect(service.signIn(`guess${i}@example.com.au`, 'x', '10.9.9.9')).rejects.toThrow('Email or password is incorrect');
    await expect(service.signIn('pat@example.com.au', 'right password!', '10.9.9.9')).resolves.toEqual({ token: 'tok' });
    for (let i = 10; i < 50; i++) await expect(service.signIn(`guess${i}@example.com.au`, 'x', '10.9.9.9')).rejects.toThrow('Email or password is incorrect');
    await expect(service.signIn('pat@example.com.au', 'right password!', '10.9.9.9')).rejects.toThrow('Too many failed sign-ins. Try again in 30 seconds.');
  });

  it('emails the user once when their email sees a burst of failures from anywhere, and never for an unknown email', async () => {
    const { service, mails } = subject();
    for (let i = 0; i < 12; i++) await expect(service.signIn('pat@example.com.au', 'wrong password!', `10.0.0.${i}`)).rejects.toThrow();
    for (let i = 0; i < 12; i++) await expect(service.signIn('nobody@example.com.au', 'wrong password!', `10.0.0.${i}`)).rejects.toThrow();
    expect(mails.map((m) => [m.to, m.subject])).toEqual([['pat@example.com.au', 'Failed sign-ins to your SMS Platform account']]);
    expect(mails[0].text).toContain('There were 10 failed attempts to sign in as this email address in the last 15 minutes.');
    expect(mails[0].text).toContain('https://dash.example/forgot-password');
  });

  it("forgets the pair's failures after a success, so the user is not slowed by their own earlier typos", async () => {
    const { service, failures } = subject();
    for (let i = 0; i < 4; i++) await expect(service.signIn('pat@example.com.au', 'typo', '10.0.0.1')).rejects.toThrow();
    await service.signIn('pat@example.com.au', 'right password!', '10.0.0.1');
    expect([failures.count('pair'), failures.count('ip'), failures.count('email')]).toEqual([0, 4, 4]);
  });
});
