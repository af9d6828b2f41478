import type { FastifyReply, FastifyRequest } from 'fastify';
import type {} from '@fastify/helmet';
import { ErrorText, PageErrorText, PageErrorTitle } from '../common/errors/error-catalogue';
import type { ErrorResponse } from '../common/errors/error-mapping';
import { HtmlErrorResponder } from '../common/errors/html-error-responder';
import type { AppConfig } from '../config/app-config';
import { isPageRoute, isPublicLinkRoute, wantsHtml } from './page-route';
import { TWO_FACTOR_SETUP_PATH } from './register-pages';
import { renderPage } from './render-page';
import { ERROR_TEMPLATE } from './view-engine';

/** Headers of an error answer that still mean something on a page. */
const KEPT_HEADERS = ['Allow', 'Retry-After'];

/**
 * Errors as readable pages for browsers: 401 sends the browser to sign in (and back afterwards); every
 * other status is a page with the same status, the error's text, and for our own failures a reference
 * (the request id) instead of details.
 */
export class HtmlErrorPages extends HtmlErrorResponder {
  constructor(
    private readonly config: AppConfig,
    private readonly signInPath: string,
  ) {
    super();
  }

  wantsHtml(request: FastifyRequest): boolean {
    return wantsHtml(request);
  }

  async respond(request: FastifyRequest, reply: FastifyReply, response: ErrorResponse): Promise<void> {
    // A page route already carries the same headers (set on request from ones computed once): helmet
    // would build them again for every error page, a guesser's 404s and 429s among them.
    if (!isPageRoute(request)) reply.helmet?.();
    reply.header('Cache-Control', 'no-store');
    if (response.status === 401) {
      reply.code(303).header('Location', this.signInLocation(request)).send();
      return;
    }
    // A page opened before two-factor set-up the account requires: to the set-up page (a form post gets the 403 page).
    if (response.status === 403 && response.body.error === ErrorText.twoFactorSetupRequired && request.method === 'GET') {
      reply.code(303).header('Location', TWO_FACTOR_SETUP_PATH).send();
      return;
    }
    const title = PageErrorTitle[response.status] ?? PageErrorTitle[response.status >= 500 ? 500 : 400];
    const html = await renderPage(request, reply, this.config, ERROR_TEMPLATE, {
      title,
      message: this.messageOf(request, response),
      reference: response.status >= 500 ? request.id : undefined,
      referenceLabel: PageErrorText.requestId,
      // A short link or opt-out link is opened by a message's recipient, who has no dashboard to go to.
      overviewLink: !isPublicLinkRoute(request),
    });
    for (const name of KEPT_HEADERS) if (response.headers[name]) reply.header(name, response.headers[name]);
    reply.code(response.status).type('text/html; charset=utf-8').send(html);
  }

  private messageOf(request: FastifyRequest, response: ErrorResponse): string {
    const text = response.body.error;
    if (response.status === 404 && text === ErrorText.notFound) return isPublicLinkRoute(request) ? PageErrorText.linkNotFound : PageErrorText.notFound;
    if (response.status === 500 && text === ErrorText.internal) return PageErrorText.internal;
    return text;
  }

  /** Back to this page after signing in, when it was a page one can GET. */
  private signInLocation(request: FastifyRequest): string {
    if (request.method !== 'GET') return this.signInPath;
    return `${this.signInPath}?next=${encodeURIComponent(request.url)}`;
  }
}
