import { csrfTokenFor } from '../../src/pages/csrf';
import { PageClient, textOf } from '../support/page-client';
import { startTestApp, TestApp } from '../support/test-app';

/** The page layer on the real app: rendering, forms, CSRF, security headers and HTML error pages, beside an API that is unchanged. */
describe('Page layer', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({}, { probe: true, probePages: true });
  });
  afterAll(() => t.close());

  describe('rendering', () => {
    it('renders a page inside the layout, escaping what it is given, never cached', async () => {
      const res = await new PageClient(t.app).get('/test-page');
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.html).toMatch(/^<!doctype html>/);
      expect(res.html).toContain('<title>Probe page · SMS Platform</title>');
      expect(res.html).toContain('<link rel="stylesheet" href="/assets/app.css">');
      expect(res.html).toContain('Hello &lt;b&gt;world&lt;/b&gt; &amp; &quot;friends&quot;');
      expect(res.html).not.toContain('<b>world</b>');
    });

    it('sends a strict Content-Security-Policy and the usual security headers on pages', async () => {
      const res = await new PageClient(t.app).get('/test-page');
      expect(res.headers['content-security-policy']).toBe(
        "default-src 'self';script-src 'self';style-src 'self';img-src 'self' data:;font-src 'self';connect-src 'self';object-src 'none';base-uri 'none';form-action 'self';frame-ancestors 'none'",
      );
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      expect(res.headers['strict-transport-security']).toMatch(/^max-age=\d+/);
    });

    it('serves the stylesheet and the script as files', async () => {
      const css = await t.app.inject({ method: 'GET', url: '/assets/app.css' });
      expect(css.statusCode).toBe(200);
      expect(css.headers['content-type']).toMatch(/^text\/css/);
      expect(css.headers['x-content-type-options']).toBe('nosniff');
      const js = await t.app.inject({ method: 'GET', url: '/assets/app.js' });
      expect(js.statusCode).toBe(200);
      expect(js.headers['content-type']).toMatch(/javascript/);
      expect(js.body).toContain('data-copy');
    });
  });

  describe('CSRF', () => {
    it('gives a first-time browser an HttpOnly SameSite=Lax pre-session cookie, and a form token derived from it', async () => {
      const browser = new PageClient(t.app);
      const res = await browser.get('/test-page');
      const cookie = String(res.headers['set-cookie']);
      expect(cookie).toMatch(/^csrf=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Lax$/);
      expect(browser.csrf).toBe(csrfTokenFor(browser.cookies.get('csrf')!));
    });

    it('accepts a form with the right token and answers 303 to the next page', async () => {
      const browser = new PageClient(t.app);
      await browser.get('/test-page');
      const res = await browser.post('/test-page/form', { name: 'Ada', colour: ['red', 'blue'] });
      expect(res.status).toBe(303);
      expect(res.location).toBe(`/test-page?name=Ada&colours=${encodeURIComponent('["red","blue"]')}`);
    });

    it.each([
      ['no token', { name: 'Ada', _csrf: '' }],
      ['a wrong token', { name: 'Ada', _csrf: 'x'.repeat(43) }],
    ])('refuses a form with %s: 403 page, nothing done', async (_, fields) => {
      const browser = new PageClient(t.app);
      await browser.get('/test-page');
      const res = await browser.post('/test-page/form', fields);
      expect(res.status).toBe(403);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(textOf(res.html)).toContain('This form has expired. Go back, reload the page and try again.');
    });

    it('refuses a token made for another browser (another cookie)', async () => {
      const alice = new PageClient(t.app);
      const mallory = new PageClient(t.app);
      await alice.get('/test-page');
      await mallory.get('/test-page');
      const res = await alice.post('/test-page/form', { name: 'Ada', _csrf: mallory.csrf });
      expect(res.status).toBe(403);
    });

    it('refuses a form from a browser that has no cookie at all', async () => {
      const res = await new PageClient(t.app).post('/test-page/form', { name: 'Ada', _csrf: csrfTokenFor('guess') });
      expect(res.status).toBe(403);
    });
  });

  describe('forms', () => {
    it('re-renders with the status the page chose', async () => {
      const browser = new PageClient(t.app);
      await browser.get('/test-page');
      const res = await browser.post('/test-page/form', { name: '  ' });
      expect(res.status).toBe(400);
      expect(textOf(res.html)).toContain('name is required');
    });

    it('takes only urlencoded forms on page routes (415 page)', async () => {
      const browser = new PageClient(t.app);
      await browser.get('/test-page');
      const res = await browser.send('POST', '/test-page/form', JSON.stringify({ name: 'Ada', _csrf: browser.csrf }), { 'content-type': 'application/json' });
      expect(res.status).toBe(415);
      expect(textOf(res.html)).toContain('Forms must be sent as application/x-www-form-urlencoded');
    });

    it('keeps the API to JSON bodies: a form posted to the API is refused in the envelope', async () => {
      const res = await t.app.inject({ method: 'POST', url: '/v1/test-probe/echo', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'a=1' });
      expect(res.statusCode).toBe(415);
      expect(res.json()).toEqual({ error: 'Unsupported content type; send application/json' });
      const anon = await t.app.inject({ method: 'POST', url: '/v1/nope', headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' }, payload: 'a=1' });
      expect(anon.statusCode).toBe(404);
      expect(anon.json()).toEqual({ error: 'Not found' });
      expect(anon.headers['content-security-policy']).toBeUndefined();
    });
  });

  describe('error pages', () => {
    it('sends a signed-out browser to sign in, and back afterwards', async () => {
      const res = await new PageClient(t.app).get('/test-page/private?x=1');
      expect(res.status).toBe(303);
      expect(res.location).toBe(`/sign-in?next=${encodeURIComponent('/test-page/private?x=1')}`);
    });

    it('answers 403 as a page', async () => {
      const res = await new PageClient(t.app).get('/test-page/forbidden');
      expect(res.status).toBe(403);
      expect(textOf(res.html)).toContain('Not allowed This form has expired.');
      expect(res.headers['content-security-policy']).toContain("script-src 'self'");
    });

    it('answers an unknown path with a 404 page for browsers and the JSON envelope for API clients', async () => {
      const page = await new PageClient(t.app).get('/no-such-page');
      expect(page.status).toBe(404);
      expect(textOf(page.html)).toContain('Page not found There is no page at this address.');
      expect(page.headers['content-security-policy']).toBeDefined();
      const api = await t.app.inject({ method: 'GET', url: '/no-such-page' });
      expect(api.statusCode).toBe(404);
      expect(api.json()).toEqual({ error: 'Not found' });
    });

    it('answers a wrong method on a page path with a 405 page and Allow', async () => {
      const res = await new PageClient(t.app).send('DELETE', '/test-page', undefined, {});
      expect(res.status).toBe(405);
      expect(res.headers.allow).toBe('GET');
      expect(textOf(res.html)).toContain('Invalid request method. Allowed methods: GET');
    });

    it('answers our own failure with a 500 page that gives a reference and no details', async () => {
      const res = await new PageClient(t.app).get('/test-page/boom');
      expect(res.status).toBe(500);
      const text = textOf(res.html);
      expect(text).toContain('Something went wrong We could not finish this.');
      expect(text).toContain(`Reference: ${res.headers['x-request-id']}`);
      expect(res.html).not.toContain('secret internals');
    });

    it('answers JSON on a page route when the client asks for JSON', async () => {
      const res = await t.app.inject({ method: 'GET', url: '/test-page/forbidden', headers: { accept: 'application/json' } });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ error: 'This form has expired. Go back, reload the page and try again.' });
    });

    it('keeps API errors as the JSON envelope even for browsers', async () => {
      const res = await t.app.inject({ method: 'GET', url: '/v1/account', headers: { accept: 'text/html' } });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ error: 'Authentication required' });
    });
  });
});

describe('Page layer behind a TLS-terminating proxy', () => {
  it.each([
    ['trusted', 'true', '__Host-csrf', true],
    ['not trusted', 'false', 'csrf', false],
  ])('when the proxy is %s, X-Forwarded-Proto: https decides Secure and the __Host- prefix accordingly', async (_, trustProxy, name, secure) => {
    const t = await startTestApp({ trustProxy }, { probePages: true });
    try {
      const res = await new PageClient(t.app, { headers: { 'x-forwarded-proto': 'https' } }).get('/test-page');
      const cookie = String(res.headers['set-cookie']);
      expect(cookie.startsWith(`${name}=`)).toBe(true);
      expect(cookie.includes('; Secure')).toBe(secure);
    } finally {
      await t.close();
    }
  });
});
