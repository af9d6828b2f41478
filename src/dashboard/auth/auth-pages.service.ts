import { Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppConfig } from '../../config/app-config';
import { clearCookie, readCookie, writeCookie } from '../../pages/cookies';
import { formText, type FormBody } from '../../pages/form-body';
import { errorModel, withFormErrors } from '../../pages/form-error';
import { PageResult, redirectTo, safeLocalPath, view } from '../../pages/page-result';
import { AuditLogService } from '../../users/audit-log.service';
import { SessionsService } from '../../users/sessions.service';
import { SESSION_ABSOLUTE_MS } from '../../users/session-expiry';
import { SignInService } from '../../users/sign-in.service';
import { REMEMBER_DEVICE_MS } from '../../users/two-factor/remembered-devices';
import { CHALLENGE_TTL_MS } from '../../users/two-factor/sign-in-challenges';
import { UserLinksService } from '../../users/user-links.service';
import { MIN_PASSWORD_LENGTH } from '../../users/password-policy';
import { PAGES } from '../navigation';
import { noticeFor, withNotice } from '../notices';

export const TWO_FACTOR_PATH = '/sign-in/two-factor';

const VIEWS = {
  signIn: 'dashboard/views/sign-in',
  forgot: 'dashboard/views/forgot-password',
  setPassword: 'dashboard/views/set-password',
  secondFactor: 'dashboard/views/sign-in-two-factor',
};

/** Signing in and out, and the emailed password links: the pages anyone may open. */
@Injectable()
export class AuthPagesService {
  constructor(
    private readonly signIns: SignInService,
    private readonly sessions: SessionsService,
    private readonly links: UserLinksService,
    private readonly audit: AuditLogService,
    private readonly config: AppConfig,
  ) {}

  async signInPage(request: FastifyRequest, query: Record<string, string | undefined>): Promise<PageResult> {
    const next = safeLocalPath(query.next, PAGES.overview.path);
    if (await this.sessions.resolve(readCookie(request, 'session', this.config.cookieSecure))) return redirectTo(next);
    return view(VIEWS.signIn, { title: 'Sign in', next, email: '', notice: noticeFor(query.notice), signUpEnabled: this.config.signupEnabled });
  }

  async signIn(request: FastifyRequest, reply: FastifyReply, form: FormBody | undefined): Promise<PageResult> {
    const email = formText(form, 'email');
    const next = safeLocalPath(formText(form, 'next'), PAGES.overview.path);
    // Passwords are not trimmed: spaces are characters like any other.
    const password = form && typeof form.password === 'string' ? form.password : '';
    return withFormErrors<PageResult>(
      async () => {
        const outcome = await this.signIns.signIn(email, password, request.ip, readCookie(request, 'device', this.config.cookieSecure));
        if (outcome.challenge !== undefined) {
          writeCookie(reply, request, 'challenge', outcome.challenge, this.config.cookieSecure, CHALLENGE_TTL_MS / 1000);
          return redirectTo(`${TWO_FACTOR_PATH}?next=${encodeURIComponent(next)}`);
        }
        writeCookie(reply, request, 'session', outcome.token, this.config.cookieSecure, SESSION_ABSOLUTE_MS / 1000);
        return redirectTo(next);
      },
      (error) => {
        if (error.retryAfterSeconds) reply.header('Retry-After', String(error.retryAfterSeconds));
        return view(VIEWS.signIn, { title: 'Sign in', next, email, ...errorModel(error), signUpEnabled: this.config.signupEnabled }, error.status);
      },
    );
  }

  secondFactorPage(request: FastifyRequest, query: Record<string, string | undefined>): PageResult {
    const next = safeLocalPath(query.next, PAGES.overview.path);
    if (!readCookie(request, 'challenge', this.config.cookieSecure)) return redirectTo(`/sign-in?next=${encodeURIComponent(next)}`);
    return view(VIEWS.secondFactor, { title: 'Two-factor sign-in', next });
  }

  async secondFactor(request: FastifyRequest, reply: FastifyReply, form: FormBody | undefined): Promise<PageResult> {
    const next = safeLocalPath(formText(form, 'next'), PAGES.overview.path);
    const mode = this.config.cookieSecure;
    return withFormErrors<PageResult>(
      async () => {
        const challenge = readCookie(request, 'challenge', mode) ?? '';
        const { token, device } = await this.signIns.completeSecondFactor(challenge, formText(form, 'code'), request.ip, formText(form, 'remember') === 'yes');
        clearCookie(reply, request, 'challenge', mode);
        writeCookie(reply, request, 'session', token, mode, SESSION_ABSOLUTE_MS / 1000);
        if (device) writeCookie(reply, request, 'device', device, mode, REMEMBER_DEVICE_MS / 1000);
        return redirectTo(next);
      },
      (error) => {
        if (error.retryAfterSeconds) reply.header('Retry-After', String(error.retryAfterSeconds));
        return view(VIEWS.secondFactor, { title: 'Two-factor sign-in', next, ...errorModel(error), expired: error.status === 401 }, error.status);
      },
    );
  }

  async signOut(request: FastifyRequest, reply: FastifyReply): Promise<PageResult> {
    const token = readCookie(request, 'session', this.config.cookieSecure);
    if (token) {
      const ended = await this.sessions.end(token);
      if (ended)
        await this.audit.record({ userId: ended.userId, accountId: ended.accountId, email: ended.email, isOwner: false, permissions: [], ip: request.ip }, 'signed_out', '');
    }
    clearCookie(reply, request, 'session', this.config.cookieSecure);
    return redirectTo(withNotice('/sign-in', 'signed_out'));
  }

  forgotPage(): PageResult {
    return view(VIEWS.forgot, { title: 'Reset your password', email: '' });
  }

  async requestReset(form: FormBody | undefined): Promise<PageResult> {
    const email = formText(form, 'email');
    return withFormErrors<PageResult>(
      async () => {
        await this.links.requestReset(email);
        return view(VIEWS.forgot, { title: 'Reset your password', sent: true, email });
      },
      (error) => view(VIEWS.forgot, { title: 'Reset your password', email, ...errorModel(error) }, error.status),
    );
  }

  async setPasswordPage(token: string): Promise<PageResult> {
    return withFormErrors<PageResult>(
      async () => {
        const link = await this.links.inspect(token);
        return view(VIEWS.setPassword, this.setPasswordModel(token, link.purpose, link.email));
      },
      (error) => view(VIEWS.setPassword, { title: 'Link not valid', invalid: true, ...errorModel(error) }, error.status),
    );
  }

  async setPassword(request: FastifyRequest, token: string, form: FormBody | undefined): Promise<PageResult> {
    const password = form && typeof form.password === 'string' ? form.password : '';
    const confirmation = form && typeof form.confirmation === 'string' ? form.confirmation : '';
    return withFormErrors<PageResult>(
      async () => {
        await this.links.setPassword(token, password, confirmation, request.ip);
        return redirectTo(withNotice('/sign-in', 'password_set'));
      },
      async (error) => {
        const link = await this.links.inspect(token).catch(() => null);
        if (!link) return view(VIEWS.setPassword, { title: 'Link not valid', invalid: true, ...errorModel(error) }, error.status);
        return view(VIEWS.setPassword, { ...this.setPasswordModel(token, link.purpose, link.email), ...errorModel(error) }, error.status);
      },
    );
  }

  private setPasswordModel(token: string, purpose: string, email: string) {
    const invitation = purpose === 'invitation';
    return { title: invitation ? 'Choose your password' : 'Choose a new password', invitation, email, token, minLength: MIN_PASSWORD_LENGTH };
  }
}
