import type {} from '@fastify/cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';

export type CookieSecureMode = 'auto' | 'always' | 'never';

/** Cookies the pages use. Over https they carry the `__Host-` prefix (Secure, Path=/, no Domain), which no subdomain can plant. */
export const COOKIE = { session: 'sid', csrf: 'csrf', challenge: 'tfa', device: 'tfd' } as const;
export type CookieKind = keyof typeof COOKIE;

/** True when the browser reached us over https (directly, or as a trusted proxy says in X-Forwarded-Proto). */
export function isSecureRequest(request: FastifyRequest, mode: CookieSecureMode): boolean {
  if (mode === 'always') return true;
  if (mode === 'never') return false;
  return request.protocol === 'https';
}

export function cookieName(kind: CookieKind, secure: boolean): string {
  return secure ? `__Host-${COOKIE[kind]}` : COOKIE[kind];
}

export function readCookie(request: FastifyRequest, kind: CookieKind, mode: CookieSecureMode): string | undefined {
  const value = request.cookies?.[cookieName(kind, isSecureRequest(request, mode))];
  return value === undefined || value === '' ? undefined : value;
}

/** HttpOnly, SameSite=Lax, Path=/, Secure over https. `maxAgeSeconds` undefined: until the browser closes. */
export function writeCookie(reply: FastifyReply, request: FastifyRequest, kind: CookieKind, value: string, mode: CookieSecureMode, maxAgeSeconds?: number): void {
  const secure = isSecureRequest(request, mode);
  reply.setCookie(cookieName(kind, secure), value, { httpOnly: true, sameSite: 'lax', secure, path: '/', ...(maxAgeSeconds !== undefined ? { maxAge: maxAgeSeconds } : {}) });
}

export function clearCookie(reply: FastifyReply, request: FastifyRequest, kind: CookieKind, mode: CookieSecureMode): void {
  const secure = isSecureRequest(request, mode);
  reply.clearCookie(cookieName(kind, secure), { httpOnly: true, sameSite: 'lax', secure, path: '/' });
}
