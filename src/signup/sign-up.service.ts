import { Injectable } from '@nestjs/common';
import { AccountsService } from '../accounts/accounts.service';
import { failure } from '../common/errors/error-catalogue';
import { Clock } from '../common/time/clock';
import { AppConfig } from '../config/app-config';
import { UnitOfWork } from '../database/unit-of-work';
import { MailTemplates } from '../mail/mail-templates';
import { MailService } from '../mail/mail.service';
import type { Actor } from '../users/actor';
import { AuditLogService } from '../users/audit-log.service';
import { normaliseEmail } from '../users/email';
import { hashPassword } from '../users/password-hash';
import { checkNewPassword } from '../users/password-policy';
import { digestOf, newSecretToken } from '../users/secret-token';
import { SessionsService } from '../users/sessions.service';
import { UsersService, MAX_NAME_LENGTH } from '../users/users.service';
import { limitedUntil, SIGN_UP_LINK_LIFETIME_MS, SIGN_UP_MAILS_PER_EMAIL, SIGN_UP_WINDOW_MS, SIGN_UPS_PER_ADDRESS } from './sign-up-throttle';
import { PendingSignUp, SignUpsRepository } from './sign-ups.repository';

export const SIGN_UP_VERIFY_PATH = '/sign-up/verify';

export interface SignUpForm {
  name: string;
  businessName: string;
  email: string;
  password: string;
  confirmation: string;
}

/**
 * A business opens its own test account: the form, an emailed single-use link (24 h), then the account,
 * its owner and a session in one transaction. The answer to the form is the same whether or not the
 * email already signs in somewhere, after the same work (a scrypt hash and one insert either way; the
 * mail, a link or a "you already have an account" note, leaves after the answer), so the page tells
 * no one who has an account.
 */
@Injectable()
export class SignUpService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly signUps: SignUpsRepository,
    private readonly accounts: AccountsService,
    private readonly users: UsersService,
    private readonly sessions: SessionsService,
    private readonly audit: AuditLogService,
    private readonly mail: MailService,
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  get enabled(): boolean {
    return this.config.signupEnabled;
  }

  /** Checks the form, throttles, and emails the link (or the note); answers the normalised email for the page. */
  async request(form: SignUpForm, ip: string): Promise<{ email: string }> {
    this.ensureOpen();
    const { name, businessName, email } = checkedForm(form);
    const now = this.clock.now();
    const ipSha256 = digestOf(ip);
    const recent = await this.signUps.recent(ipSha256, email, new Date(now.getTime() - SIGN_UP_WINDOW_MS));
    const until = limitedUntil(recent.fromAddress, now, SIGN_UPS_PER_ADDRESS, SIGN_UP_WINDOW_MS);
    if (until) throw failure('signUpThrottled', Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 60_000)));

    const passwordHash = await hashPassword(form.password);
    const taken = await this.users.emailInUse(email);
    const token = newSecretToken();
    await this.uow.run(async (tx) => {
      // Every try is a row (the address's count), whether or not a mail goes.
      await this.signUps.insert(
        { email, name, businessName, passwordHash, tokenSha256: digestOf(token), ipSha256, at: now, expiresAt: new Date(now.getTime() + SIGN_UP_LINK_LIFETIME_MS) },
        tx,
      );
      if (recent.forEmail >= SIGN_UP_MAILS_PER_EMAIL) return;
      const base = this.config.dashboardUrl;
      const mail = taken
        ? MailTemplates.signUpExisting(email, { signInLink: `${base}/sign-in`, resetLink: `${base}/forgot-password` })
        : MailTemplates.signUpVerify(email, { businessName, link: `${base}${SIGN_UP_VERIFY_PATH}/${token}`, validHours: SIGN_UP_LINK_LIFETIME_MS / 3_600_000 });
      // Not awaited: the answer must not wait on SMTP, or its timing would differ between the two mails.
      tx.afterCommit(() => void this.mail.send(mail));
    });
    return { email };
  }

  /** What a link would open, while it can still be used. */
  async inspect(token: string): Promise<PendingSignUp> {
    this.ensureOpen();
    const pending = await this.signUps.findLive(digestOf(token), this.clock.now());
    if (!pending) throw failure('linkInvalid');
    return pending;
  }

  /** Uses the link: the test account, its owner (with the password chosen at sign-up) and a session, all or nothing. */
  async confirm(token: string, ip: string): Promise<{ sessionToken: string; accountId: number }> {
    this.ensureOpen();
    return this.uow.run(async (tx) => {
      const now = this.clock.now();
      const used = await this.signUps.consume(digestOf(token), now, tx);
      if (!used) throw failure('linkInvalid');
      const account = await this.accounts.openTestAccount(used.businessName, tx);
      const owner = await this.users.addSignedUpOwner(account.id, { email: used.email, name: used.name, passwordHash: used.passwordHash }, tx);
      await this.signUps.settle(used.id, used.email, account.id, now, tx);
      const { token: sessionToken } = await this.sessions.create(owner.id, ip, tx);
      const actor: Actor = { userId: owner.id, accountId: account.id, email: owner.email, isOwner: true, permissions: [], ip };
      await this.audit.record(actor, 'account.signed_up', `${used.businessName} (test account)`, tx);
      return { sessionToken, accountId: account.id };
    });
  }

  /** Refuses (a 404 page) while the operator has sign-up switched off. */
  ensureOpen(): void {
    if (!this.config.signupEnabled) throw failure('signUpClosed');
  }
}

function checkedForm(form: SignUpForm): { name: string; businessName: string; email: string } {
  const name = form.name.trim();
  const businessName = form.businessName.trim();
  if (name === '') throw failure('signUpNameRequired');
  if ([...name].length > MAX_NAME_LENGTH) throw failure('nameTooLong');
  if (businessName === '') throw failure('signUpBusinessNameRequired');
  if ([...businessName].length > MAX_NAME_LENGTH) throw failure('signUpBusinessNameTooLong');
  const email = normaliseEmail(form.email);
  if (!email) throw failure('emailInvalid');
  checkNewPassword(form.password, form.confirmation);
  return { name, businessName, email };
}
