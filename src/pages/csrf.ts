import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { failure } from '../common/errors/error-catalogue';
import { AppConfig } from '../config/app-config';
import { cookieName, isSecureRequest, readCookie, writeCookie } from './cookies';
import { formText, type FormBody } from './form-body';

/** The form field every state-changing form carries. */
export const CSRF_FIELD = '_csrf';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * The token is an HMAC keyed with a secret only the browser's cookies hold: the session token when
 * signed in (so the token is tied to the session and changes with it), else a random pre-session
 * cookie (sign-in, password forms). Another site can neither read those cookies nor compute the token;
 * nothing is stored on the server.
 */
export function csrfTokenFor(cookieSecret: string): string {
  return createHmac('sha256', cookieSecret).update('csrf-v1').digest('base64url');
}

export function csrfTokenMatches(cookieSecret: string | undefined, submitted: string): boolean {
  if (!cookieSecret || submitted === '') return false;
  const expected = Buffer.from(csrfTokenFor(cookieSecret));
  const given = Buffer.from(submitted);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

function cookieSecretOf(request: FastifyRequest, config: AppConfig): string | undefined {
  return readCookie(request, 'session', config.cookieSecure) ?? readCookie(request, 'csrf', config.cookieSecure);
}

/** The token for the forms of this response, setting the pre-session cookie first when the browser has none. */
export function csrfTokenForResponse(request: FastifyRequest, reply: FastifyReply, config: AppConfig): string {
  let secret = cookieSecretOf(request, config);
  if (!secret) {
    secret = randomBytes(32).toString('base64url');
    writeCookie(reply, request, 'csrf', secret, config.cookieSecure);
    // Anything later in this request (an error page after it) renders the same token.
    request.cookies[cookieName('csrf', isSecureRequest(request, config.cookieSecure))] = secret;
  }
  return csrfTokenFor(secret);
}

/** Refuses (403 page) any state-changing request on a page route whose form lacks the right token. */
@Injectable()
export class CsrfGuard implements CanActivate {
  constructor(private readonly config: AppConfig) {}

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    if (SAFE_METHODS.has(request.method)) return true;
    const submitted = formText(request.body as FormBody | undefined, CSRF_FIELD);
    if (!csrfTokenMatches(cookieSecretOf(request, this.config), submitted)) throw failure('csrfTokenInvalid');
    return true;
  }
}
