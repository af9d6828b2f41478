import { Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppConfig } from '../../config/app-config';
import { writeCookie } from '../../pages/cookies';
import { formText, type FormBody } from '../../pages/form-body';
import { FormError, errorModel, withFormErrors } from '../../pages/form-error';
import { PageResult, redirectTo, view } from '../../pages/page-result';
import { SignUpService } from '../../signup/sign-up.service';
import { MIN_PASSWORD_LENGTH } from '../../users/password-policy';
import { SESSION_ABSOLUTE_MS } from '../../users/session-expiry';
import { PAGES } from '../navigation';
import { withNotice } from '../notices';

const VIEWS = { form: 'dashboard/views/sign-up', verify: 'dashboard/views/sign-up-verify' };

interface Typed {
  name: string;
  businessName: string;
  email: string;
}

/** Sign-up pages: the form, the "check your email" answer, and the link's confirmation. */
@Injectable()
export class SignUpPagesService {
  constructor(
    private readonly signUps: SignUpService,
    private readonly config: AppConfig,
  ) {}

  form(): Promise<PageResult> {
    return this.formPage({ name: '', businessName: '', email: '' });
  }

  async signUp(request: FastifyRequest, form: FormBody | undefined): Promise<PageResult> {
    const typed: Typed = { name: formText(form, 'name'), businessName: formText(form, 'business_name'), email: formText(form, 'email') };
    // Passwords are not trimmed: spaces are characters like any other.
    const raw = (field: string) => (form && typeof form[field] === 'string' ? (form[field] as string) : '');
    return withFormErrors<PageResult>(
      async () => {
        const { email } = await this.signUps.request({ ...typed, password: raw('password'), confirmation: raw('confirmation') }, request.ip);
        return view(VIEWS.form, { title: 'Check your email', sent: true, email });
      },
      (error) => this.formPage(typed, error),
    );
  }

  async verifyPage(token: string): Promise<PageResult> {
    return withFormErrors<PageResult>(
      async () => {
        const pending = await this.signUps.inspect(token);
        return view(VIEWS.verify, { title: 'Open your account', token, email: pending.email, businessName: pending.businessName });
      },
      (error) => view(VIEWS.verify, { title: 'Link not valid', invalid: true, ...errorModel(error) }, error.status),
    );
  }

  /** A POST, not the GET of the link: mail scanners that open links must not open accounts. */
  async verify(request: FastifyRequest, reply: FastifyReply, token: string): Promise<PageResult> {
    return withFormErrors<PageResult>(
      async () => {
        const { sessionToken } = await this.signUps.confirm(token, request.ip);
        writeCookie(reply, request, 'session', sessionToken, this.config.cookieSecure, SESSION_ABSOLUTE_MS / 1000);
        return redirectTo(withNotice(PAGES.overview.path, 'signed_up'));
      },
      (error) => view(VIEWS.verify, { title: 'Link not valid', invalid: true, ...errorModel(error) }, error.status),
    );
  }

  private async formPage(typed: Typed, error?: FormError): Promise<PageResult> {
    this.signUps.ensureOpen();
    return view(VIEWS.form, { title: 'Create your account', ...typed, minLength: MIN_PASSWORD_LENGTH, ...errorModel(error) }, error?.status ?? 200);
  }
}
