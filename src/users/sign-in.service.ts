import { Injectable } from '@nestjs/common';
import { failure } from '../common/errors/error-catalogue';
import { AddressCounter } from '../common/redis/address-counter';
import { Clock } from '../common/time/clock';
import { AppConfig } from '../config/app-config';
import { UnitOfWork } from '../database/unit-of-work';
import { MailTemplates } from '../mail/mail-templates';
import { MailService } from '../mail/mail.service';
import type { Actor } from './actor';
import { AuditLogService } from './audit-log.service';
import { normaliseEmail } from './email';
import { dummyPasswordHash, verifyPassword } from './password-hash';
import { digestOf } from './secret-token';
import { SessionsService } from './sessions.service';
import { SignInFailuresRepository, ThrottleScope } from './sign-in-failures.repository';
import { ADDRESS_POLICY, PAIR_POLICY, secondsUntil, SIGN_IN_ALERT_FAILURES, SIGN_IN_WINDOW_MS, throttledUntil, waitText } from './sign-in-throttle';
import { RememberedDevices } from './two-factor/remembered-devices';
import { SignInChallenges } from './two-factor/sign-in-challenges';
import { TwoFactorService } from './two-factor/two-factor.service';
import { UsersRepository } from './users.repository';

/** A session at once, or (two-factor sign-in) a challenge to complete with a code. */
export type SignInOutcome = { token: string; challenge?: undefined } | { challenge: string; token?: undefined };

/**
 * Email and password to a session. An unknown email, a user without a password yet and a wrong
 * password get the same answer after the same work (a real scrypt check). Failures are counted in
 * PostgreSQL (every instance sees them) per (email, address) pair and per address, each with a growing
 * wait (sign-in-throttle.ts), and per email only to tell its user of a burst: failures from elsewhere
 * never keep the real user out.
 */
@Injectable()
export class SignInService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly users: UsersRepository,
    private readonly failures: SignInFailuresRepository,
    private readonly sessions: SessionsService,
    private readonly audit: AuditLogService,
    private readonly mail: MailService,
    private readonly counter: AddressCounter,
    private readonly config: AppConfig,
    private readonly clock: Clock,
    private readonly twoFactor: TwoFactorService,
    private readonly challenges: SignInChallenges,
    private readonly devices: RememberedDevices,
  ) {}

  /**
   * A session token, or for a user with two-factor sign-in (and no remembered device of theirs) a
   * challenge: the short-lived proof that the password was right, which completeSecondFactor exchanges
   * for a session with a code.
   */
  async signIn(emailText: string, password: string, ip: string, rememberedDevice?: string): Promise<SignInOutcome> {
    const now = this.clock.now();
    const email = normaliseEmail(emailText) ?? emailText.trim().toLowerCase();
    const pair = { scope: 'pair' as const, subject: digestOf(`${email}\n${ip}`) };
    const address = { scope: 'ip' as const, subject: digestOf(ip) };
    const byEmail = { scope: 'email' as const, subject: digestOf(email) };
    const windowStart = new Date(now.getTime() - SIGN_IN_WINDOW_MS);
    const [pairFailures, addressFailures] = await this.failures.since([pair, address], windowStart);
    const until = [throttledUntil(pairFailures, now, PAIR_POLICY), throttledUntil(addressFailures, now, ADDRESS_POLICY)].reduce<Date | null>(
      (latest, u) => (u && (!latest || u > latest) ? u : latest),
      null,
    );
    if (until) {
      const seconds = secondsUntil(until, now);
      throw failure('signInThrottled', waitText(seconds)).retryAfter(seconds);
    }

    const user = await this.users.findByEmailWithHash(email);
    const matches = await verifyPassword(password, user?.passwordHash ?? (await dummyPasswordHash()));
    if (!user || !user.passwordHash || !matches) {
      const subjects: Array<{ scope: ThrottleScope; subject: Buffer }> = [pair, address, byEmail];
      await this.failures.record(subjects, now, windowStart);
      if (user) await this.alertOnBurst(user.email, byEmail, windowStart);
      throw failure('signInFailed');
    }
    await this.failures.clear('pair', pair.subject);
    if ((await this.twoFactor.isEnabled(user.id)) && !(await this.devices.recognises(user.id, rememberedDevice))) {
      return { challenge: await this.challenges.open(user.id) };
    }
    return this.openSession(user.id, ip);
  }

  /**
   * The second step for a user with two-factor sign-in: the challenge from the first step and a code
   * (TOTP or recovery). `remember`: also a device cookie, so this browser skips the code for 30 days.
   */
  async completeSecondFactor(challenge: string, code: string, ip: string, remember: boolean): Promise<{ token: string; device?: string }> {
    const userId = await this.challenges.userOf(challenge);
    const user = userId === null ? null : await this.users.findById(userId);
    if (!user) throw failure('twoFactorChallengeExpired');
    const actor: Actor = { userId: user.id, accountId: user.accountId, email: user.email, isOwner: user.isOwner, permissions: user.permissions, ip };
    await this.twoFactor.verify(actor, code);
    await this.challenges.close(challenge);
    const { token } = await this.openSession(user.id, ip);
    return remember ? { token, device: await this.devices.issue(user.id) } : { token };
  }

  private async openSession(userId: number, ip: string): Promise<{ token: string }> {
    const user = await this.users.findById(userId);
    if (!user) throw failure('signInFailed');
    return this.uow.run(async (tx) => {
      const { token } = await this.sessions.create(user.id, ip, tx);
      const actor: Actor = { userId: user.id, accountId: user.accountId, email: user.email, isOwner: user.isOwner, permissions: user.permissions, ip };
      await this.audit.record(actor, 'signed_in', '', tx);
      return { token };
    });
  }

  /** Emails the user once per window when failures for their email, from anywhere, reach SIGN_IN_ALERT_FAILURES. */
  private async alertOnBurst(email: string, byEmail: { scope: ThrottleScope; subject: Buffer }, windowStart: Date): Promise<void> {
    const [failures] = await this.failures.since([byEmail], windowStart);
    if (failures.length < SIGN_IN_ALERT_FAILURES) return;
    // One alert per window: the first count opens it (a lost Redis at worst sends one more).
    if ((await this.counter.add(`sign-in-alert:${byEmail.subject.toString('hex')}`, SIGN_IN_WINDOW_MS)) !== 1) return;
    void this.mail.send(
      MailTemplates.signInFailures(email, { failures: failures.length, minutes: SIGN_IN_WINDOW_MS / 60_000, resetLink: `${this.config.dashboardUrl}/forgot-password` }),
    );
  }
}
