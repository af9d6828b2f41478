import { Injectable } from '@nestjs/common';
import { BackgroundTasks } from '../common/background/background-tasks';
import { failure } from '../common/errors/error-catalogue';
import { Clock } from '../common/time/clock';
import { AppConfig } from '../config/app-config';
import { Tx, UnitOfWork } from '../database/unit-of-work';
import { MailTemplates } from '../mail/mail-templates';
import { MailService } from '../mail/mail.service';
import type { Actor } from './actor';
import { AuditLogService } from './audit-log.service';
import { normaliseEmail } from './email';
import { hashPassword } from './password-hash';
import { checkNewPassword } from './password-policy';
import { digestOf, newSecretToken } from './secret-token';
import { SessionsService } from './sessions.service';
import type { UserTokenPurpose } from './user-token.entity';
import { LiveToken, UserTokensRepository } from './user-tokens.repository';
import { UsersRepository } from './users.repository';

/** Invitation links last 24 hours; password reset links 1 hour (issue 11). Both work once. */
export const LINK_LIFETIME_MS: Record<UserTokenPurpose, number> = { invitation: 24 * 60 * 60 * 1000, password_reset: 60 * 60 * 1000 };
/** Reset emails per user per hour; more requests get the same answer and no email (no mailbox flooding). */
export const RESETS_PER_HOUR = 3;

export const SET_PASSWORD_PATH = '/set-password';

/** Single-use emailed links: issuing them, reading one, and setting a password with it. */
@Injectable()
export class UserLinksService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly tokens: UserTokensRepository,
    private readonly users: UsersRepository,
    private readonly sessions: SessionsService,
    private readonly audit: AuditLogService,
    private readonly mail: MailService,
    private readonly config: AppConfig,
    private readonly clock: Clock,
    private readonly background: BackgroundTasks,
  ) {}

  /** A new link for the user (older unused ones stop working); only its digest is stored. */
  async issue(userId: number, purpose: UserTokenPurpose, tx: Tx): Promise<string> {
    const now = this.clock.now();
    const token = newSecretToken();
    await this.tokens.retireForUser(userId, now, tx);
    await this.tokens.insert(userId, purpose, digestOf(token), now, new Date(now.getTime() + LINK_LIFETIME_MS[purpose]), tx);
    return `${this.config.dashboardUrl}${SET_PASSWORD_PATH}/${token}`;
  }

  /** What a link is for, while it can still be used. */
  async inspect(token: string): Promise<LiveToken> {
    const live = await this.tokens.findLive(digestOf(token), this.clock.now());
    if (!live) throw failure('linkInvalid');
    return live;
  }

  /** Sets the password and uses the link, in one transaction; every session of the user ends (they sign in with it). */
  async setPassword(token: string, password: string, confirmation: string, ip: string): Promise<{ email: string }> {
    checkNewPassword(password, confirmation);
    await this.inspect(token);
    const hash = await hashPassword(password);
    return this.uow.run(async (tx) => {
      const now = this.clock.now();
      const used = await this.tokens.consume(digestOf(token), now, tx);
      if (!used) throw failure('linkInvalid');
      const user = await this.users.findById(used.userId, tx);
      if (!user) throw failure('linkInvalid');
      await this.users.setPasswordHash(user.id, hash, tx);
      await this.tokens.retireForUser(user.id, now, tx);
      await this.sessions.endForUser(user.id, null, tx);
      const actor: Actor = { userId: user.id, accountId: user.accountId, email: user.email, isOwner: user.isOwner, permissions: user.permissions, ip };
      await this.audit.record(actor, used.purpose === 'invitation' ? 'password.set' : 'password.reset', '', tx);
      return { email: user.email };
    });
  }

  /**
   * Emails a reset link when the address belongs to a user. The answer is the same either way (the
   * page never tells who has an account), and takes the same time: the request only checks the
   * address's form; looking the user up, writing the token and the mail happen after it is answered.
   * At most 3 emails an hour go to one user.
   */
  async requestReset(emailText: string): Promise<void> {
    const email = normaliseEmail(emailText);
    if (!email) throw failure('emailInvalid');
    this.background.run('password reset email', () => this.sendReset(email));
  }

  private async sendReset(email: string): Promise<void> {
    const user = await this.users.findByEmail(email);
    if (!user) return;
    const since = new Date(this.clock.now().getTime() - 60 * 60 * 1000);
    if ((await this.tokens.countSince(user.id, 'password_reset', since)) >= RESETS_PER_HOUR) return;
    await this.uow.run(async (tx) => {
      const link = await this.issue(user.id, 'password_reset', tx);
      tx.afterCommit(() => this.mail.send(MailTemplates.passwordReset(user.email, { link, validMinutes: LINK_LIFETIME_MS.password_reset / 60_000 })));
    });
  }
}
