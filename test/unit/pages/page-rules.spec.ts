import type { FastifyRequest } from 'fastify';
import { csrfTokenFor, csrfTokenMatches } from '../../../src/pages/csrf';
import { safeLocalPath } from '../../../src/pages/page-result';
import { isApiPath, wantsHtml } from '../../../src/pages/page-route';
import { redactUrl } from '../../../src/common/logging/redact-url';

const request = (url: string, accept: string | undefined, page: boolean) =>
  ({ url, headers: accept ? { accept } : {}, routeOptions: { config: page ? { page: true } : {} } }) as unknown as FastifyRequest;

describe(wantsHtml.name, () => {
  it.each([
    ['/v1/account', 'text/html', true, false],
    ['/simple/send-sms?x=1', 'text/html', false, false],
    ['/settings/api', undefined, true, true],
    ['/settings/api', 'text/html,application/xhtml+xml', true, true],
    ['/o/abc', 'application/json', true, false],
    ['/o/abc', 'application/json, text/html', true, true],
    ['/nope', undefined, false, false],
    ['/nope', 'text/html', false, true],
    ['/health', '*/*', false, false],
  ])('%s with Accept %s (page route: %s) → HTML %s', (url, accept, page, expected) => {
    expect(wantsHtml(request(url, accept, page))).toBe(expected);
  });

  it('matches the API prefixes on segment boundaries only', () => {
    expect(isApiPath('/v1')).toBe(true);
    expect(isApiPath('/v1/x')).toBe(true);
    expect(isApiPath('/v10')).toBe(false);
    expect(isApiPath('/simpleton')).toBe(false);
  });
});

describe('CSRF tokens', () => {
  it('match only the cookie secret they were made from', () => {
    const token = csrfTokenFor('secret-a');
    expect(csrfTokenMatches('secret-a', token)).toBe(true);
    expect(csrfTokenMatches('secret-b', token)).toBe(false);
    expect(csrfTokenMatches(undefined, token)).toBe(false);
    expect(csrfTokenMatches('secret-a', '')).toBe(false);
    expect(csrfTokenMatches('secret-a', token.slice(1))).toBe(false);
  });
});

describe(safeLocalPath.name, () => {
  it.each([
    ['/messages?status=failed', '/messages?status=failed'],
    [undefined, '/overview'],
    ['https://evil.example/', '/overview'],
    ['//evil.example/', '/overview'],
    ['/\\evil.example', '/overview'],
    ['/ok\r\nSet-Cookie: x=1', '/overview'],
    ['/\t/evil.example', '/overview'],
    ['/\n/evil.example', '/overview'],
    ['/\r/evil.example', '/overview'],
    ['/ /evil.example', '/overview'],
    ['/\u00a0/evil.example', '/overview'],
    ['/\t\\evil.example', '/overview'],
    ['/%09/evil.example', '/%09/evil.example'],
    ['/./\\evil.example', '/overview'],
    ['/..//evil.example', '/overview'],
    ['/contacts/../messages', '/messages'],
  ])('%j → %s', (candidate, expected) => {
    expect(safeLocalPath(candidate, '/overview')).toBe(expected);
  });
});

describe(redactUrl.name, () => {
  it('hides the token of every single-use link and opt-out code, however the path is spelt, and keeps everything else', () => {
    expect(redactUrl('/set-password/abcDEF123?x=1')).toBe('/set-password/[redacted]?x=1');
    expect(redactUrl('/set-password/abc')).toBe('/set-password/[redacted]');
    expect(redactUrl('/senders/confirm/AbCd-_12?x=1')).toBe('/senders/confirm/[redacted]?x=1');
    expect(redactUrl('/o/aZ3k9Qx')).toBe('/o/[redacted]');
    expect(redactUrl('/sign-up/verify/Tok3n_-x?from=mail')).toBe('/sign-up/verify/[redacted]?from=mail');
    // Any spelling the router (or a mistyping client) may send: escapes, case, doubled slashes, absolute form.
    expect(redactUrl('/%6F/aZ3k9Qx')).toBe('/o/[redacted]');
    expect(redactUrl('/O/aZ3k9Qx%ZZ')).toBe('/o/[redacted]');
    expect(redactUrl('//sign-up//verify/Tok3n')).toBe('/sign-up/verify/[redacted]');
    expect(redactUrl('http://dash.example/set-password/abc')).toBe('/set-password/[redacted]');
    expect(redactUrl('/sign-up?next=/o/x')).toBe('/sign-up?next=/o/x');
    expect(redactUrl('/senders/3/deactivate')).toBe('/senders/3/deactivate');
    expect(redactUrl('/v1/messages?status=sent')).toBe('/v1/messages?status=sent');
  });
});
