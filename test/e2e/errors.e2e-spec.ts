import { createAccount, startTestApp, TestAccount, TestApp } from '../support/test-app';

describe('Error envelope', () => {
  let t: TestApp;
  let account: TestAccount;

  beforeAll(async () => {
    t = await startTestApp({}, { probe: true });
  });
  beforeEach(async () => {
    account = await createAccount(t.app);
  });
  afterAll(() => t.close());

  describe('unknown paths and methods (answered before authentication)', () => {
    it.each(['/v1/nope', '/v1', '/nope', '/v1/account/extra', '/v2/account'])('answers 404 Not found for %s', async (url) => {
      const res = await t.api.get(url);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: 'Not found' });
    });

    it('answers 404 and 405 with Allow for every documented /v1 path, without credentials', async () => {
      const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
      const paths = Object.entries(doc.paths as Record<string, Record<string, unknown>>).filter(([path]) => path.startsWith('/v1/'));
      expect(paths.length).toBeGreaterThanOrEqual(2);
      for (const [path, operations] of paths) {
        const allowed = ['GET', 'POST', 'PATCH', 'DELETE'].filter((m) => m.toLowerCase() in operations);
        for (const method of ['GET', 'POST', 'PATCH', 'DELETE', 'PUT'].filter((m) => !allowed.includes(m))) {
          const res = await t.api.request(method, path, { rawBody: '{"x":1}', headers: { 'content-type': 'application/json' } });
          expect([method, path, res.status, res.body, res.headers.allow]).toEqual([
            method,
            path,
            405,
            { error: `Invalid request method. Allowed methods: ${allowed.join(', ')}` },
            allowed.join(', '),
          ]);
        }
        const unknown = await t.api.get(`${path}/unknown`);
        expect([path, unknown.status, unknown.body]).toEqual([path, 404, { error: 'Not found' }]);
      }
    });

    it('answers 405 before looking at a broken body', async () => {
      const res = await t.api.request('POST', '/v1/account', { rawBody: '{broken', headers: { 'content-type': 'application/json' } });
      expect(res.status).toBe(405);
    });
  });

  describe('request bodies', () => {
    it('answers 400 Request body is not valid JSON', async () => {
      const res = await t.api.post('/v1/test-probe/echo', { auth: account.auth, rawBody: '{"a": ', headers: { 'content-type': 'application/json' } });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'Request body is not valid JSON' });
    });

    it.each(['[1,2]', '"text"', '42', 'null', 'true'])('answers 400 Request body must be a JSON object for %s', async (raw) => {
      const res = await t.api.post('/v1/test-probe/echo', { auth: account.auth, rawBody: raw, headers: { 'content-type': 'application/json' } });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'Request body must be a JSON object' });
    });

    describe('the Content-Type rule (one for every route: JSON declared as application/json, or undeclared)', () => {
      const echo = (headers: Record<string, string>, rawBody = '{"a":1}') => t.api.post('/v1/test-probe/echo', { auth: account.auth, rawBody, headers });

      it.each(['application/json', 'application/json; charset=utf-8', 'APPLICATION/JSON;charset="UTF-8"'])('parses a body declared %j', async (type) => {
        const res = await echo({ 'content-type': type });
        expect([res.status, res.body]).toEqual([200, { received: { a: 1 } }]);
      });

      it('parses a body with no Content-Type, or a blank one, as JSON', async () => {
        for (const headers of [{}, { 'content-type': '' }, { 'content-type': '  ' }] as Array<Record<string, string>>) {
          const res = await echo(headers);
          expect([headers, res.status, res.body]).toEqual([headers, 200, { received: { a: 1 } }]);
        }
      });

      it.each(['text/plain', 'application/x-www-form-urlencoded', 'application/json, text/plain', 'application/json; charset=latin1', 'multipart/form-data; boundary=x', ';'])(
        'answers 415 for a body declared %j, before authentication',
        async (type) => {
          for (const auth of [account.auth, undefined]) {
            const res = await t.api.post('/v1/test-probe/echo', { auth, rawBody: '{"a":1}', headers: { 'content-type': type } });
            expect([res.status, res.body]).toEqual([415, { error: 'Unsupported content type; send application/json' }]);
          }
        },
      );

      it('applies the same rule to DELETE and PATCH bodies', async () => {
        const del = await t.api.delete('/v1/messages', { auth: account.auth, rawBody: '{"custom_ref":"nothing"}' });
        expect([del.status, del.body]).toEqual([404, { error: 'No scheduled messages found with the given custom_ref' }]);
        const patch = await t.api.patch('/v1/contacts', { auth: account.auth, rawBody: '{"contact_id":1}', headers: { 'content-type': 'text/plain' } });
        expect([patch.status, patch.body]).toEqual([415, { error: 'Unsupported content type; send application/json' }]);
      });

      it('leaves a media type a route opts into (route config bodyMediaTypes) to that route’s parser', async () => {
        const opted = await t.api.post('/v1/test-probe/echo-text', { auth: account.auth, rawBody: '{"a":1}', headers: { 'content-type': 'text/plain' } });
        // No text parser is registered in this app, so the catch-all JSON parser reads it: the point is it is not 415.
        expect([opted.status, opted.body]).toEqual([200, { received: { a: 1 } }]);
        const other = await t.api.post('/v1/test-probe/echo-text', { auth: account.auth, rawBody: 'a=1', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
        expect(other.status).toBe(415);
      });

      it('ignores the Content-Type of a request without a body', async () => {
        const res = await t.api.post('/v1/test-probe/echo', { auth: account.auth, headers: { 'content-type': 'text/plain' } });
        expect([res.status, res.body]).toEqual([200, { received: {} }]);
      });
    });

    it('drops __proto__ keys instead of trusting them', async () => {
      const res = await t.api.post('/v1/test-probe/echo', { auth: account.auth, rawBody: '{"a":1,"__proto__":{"admin":true}}', headers: { 'content-type': 'application/json' } });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ received: { a: 1 } });
    });

    it('treats an empty body with Content-Type application/json as no body', async () => {
      const post = await t.api.post('/v1/test-probe/echo', { auth: account.auth, rawBody: '', headers: { 'content-type': 'application/json' } });
      expect(post.status).toBe(200);
      expect(post.body).toEqual({ received: {} });
      const get = await t.api.get('/v1/account', { auth: account.auth, headers: { 'content-type': 'application/json' } });
      expect(get.status).toBe(200);
    });

    it('admits a 10000-message batch under the default limit', async () => {
      expect(t.config.bodyLimitBytes).toBeGreaterThanOrEqual(10 * 1024 * 1024);
      const messages = Array.from({ length: 10000 }, (_, i) => ({
        to: `04${String(10000000 + i)}`,
        message: 'Hello from the campaign, this is a reasonably long message body for sizing the request. '.repeat(2),
        sender: 'TestBrand',
        custom_ref: `ref-${i}`,
      }));
      const res = await t.api.post('/v1/test-probe/echo', { auth: account.auth, body: { messages } });
      expect(res.status).toBe(200);
      expect((res.body.received.messages as unknown[]).length).toBe(10000);
    });

    it('answers 413 Request body is too large over the configured limit', async () => {
      const small = await startTestApp({ bodyLimitBytes: 2048 }, { probe: true });
      try {
        const res = await small.api.post('/v1/test-probe/echo', { auth: account.auth, body: { pad: 'x'.repeat(4096) } });
        expect(res.status).toBe(413);
        expect(res.body).toEqual({ error: 'Request body is too large' });
      } finally {
        await small.close();
      }
    });
  });

  describe('unexpected failures', () => {
    it('answers 500 with a generic text and a request id, hiding the cause', async () => {
      const res = await t.api.post('/v1/test-probe/fail', { auth: account.auth, body: {} });
      expect(res.status).toBe(500);
      expect(res.body).toEqual({ error: 'Internal server error' });
      expect(res.text).not.toContain('secret detail');
      expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    });
  });
});
