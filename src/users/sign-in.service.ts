import { Injectable } from '@nestjs/common';
import { failure } from '../common/errors/error-catalogue';
import { Clock } from '../common/time/clock';
import { UnitOfWork } from '../database/unit-of-work';
import type { Actor } from './actor';
import { AuditLogService } from './audit-log.service';
import { normaliseEmail } from './email';
import { dummyPasswordHash, verifyPassword } from './password-hash';
import { digestOf } from './secret-token';
import { SessionsService } from './sessions.service';
import { SignInFailuresRepository, ThrottleScope } from './sign-in-failures.repository';
import { minutesUntil, SIGN_IN_WINDOW_MS, throttledUntil } from './sign-in-throttle';
import { UsersRepository } from './users.repository';

/**
 * Email and password to a session. An unknown email, a user without a password yet and a wrong
 * password get the same answer after the same work (a real scrypt check); after 5 failures in 15
 * minutes for the email or for the client address, tries wait, counted in PostgreSQL so every
 * instance sees them.
 */
@Injectable()
export class SignInService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly users: UsersRepository,
    private readonly failures: SignInFailuresRepository,
    private readonly sessions: SessionsService,
    private readonly audit: AuditLogService,
    private readonly clock: Clock,
  ) {}

  async signIn(emailText: string, password: string, ip: string): Promise<{ token: string }> {
    const now = this.clock.now();
    const email = normaliseEmail(emailText) ?? emailText.trim().toLowerCase();
    const subjects: Array<{ scope: ThrottleScope; subject: Buffer }> = [
      { scope: 'email', subject: digestOf(email) },
      { scope: 'ip', subject: digestOf(ip) },
    ];
    const windowStart = new Date(now.getTime() - SIGN_IN_WINDOW_MS);
    const until = (await this.failures.since(subjects, windowStart))
      .map((failures) => throttledUntil(failures, now))
      .reduce<Date | null>((latest, u) => (u && (!latest || u > latest) ? u : latest), null);
    if (until) throw failure('signInThrottled', minutesUntil(until, now));

    const user = await this.users.findByEmailWithHash(email);
    const matches = await verifyPassword(password, user?.passwordHash ?? (await dummyPasswordHash()));
    if (!user || !user.passwordHash || !matches) {
      await this.failures.record(subjects, now, windowStart);
      throw failure('signInFailed');
    }
    await this.failures.clear('email', subjects[0].subject);
    return this.uow.run(async (tx) => {
      const { token } = await this.sessions.create(user.id, ip, tx);
      const actor: Actor = { userId: user.id, accountId: user.accountId, email: user.email, isOwner: user.isOwner, permissions: user.permissions, ip };
      await this.audit.record(actor, 'signed_in', '', tx);
      return { token };
    });
  }
}
