import { accountWithOwner, signedIn } from '../support/dashboard';
import { LogCapture } from '../support/log-capture';
import { PageClient, textOf } from '../support/page-client';
import { createAccount, startTestApp, TestAccount, TestApp } from '../support/test-app';

const UNSTORABLE = (field: string) => `${field} must not contain NUL characters or unpaired surrogates`;
const TOO_DEEP = 'Request body is nested too deeply (at most 32 levels)';

/** Bodies and queries built to break the service: each class found by fuzzing, answered 400 at its root. */
describe('Hostile input', () => {
  let t: TestApp;
  let acct: TestAccount;
  const logs = new LogCapture();

  beforeAll(async () => {
    t = await startTestApp({ testReceiptDelayMs: 60_000, logLevel: 'warn' }, { logDestination: logs.stream });
  });
  beforeEach(async () => {
    acct = await createAccount(t.app, { credits: 100, senders: ['Brand'] });
  });
  afterAll(() => t.close());

  describe('deeply nested JSON', () => {
    const deep = (levels: number) => `{"x":${'['.repeat(levels)}${']'.repeat(levels)}}`;

    it('answers 400 on every operation that takes a body, for 2000 levels in 4 KB', async () => {
      const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
      let checked = 0;
      for (const [path, operations] of Object.entries(doc.paths as Record<string, Record<string, unknown>>)) {
        for (const method of ['post', 'patch', 'delete'].filter((m) => m in operations)) {
          // A public page's form takes only application/x-www-form-urlencoded: JSON is refused unread (415).
          if ((operations[method] as { 'x-public-page'?: boolean })['x-public-page']) {
            const form = await t.app.inject({
              method: method.toUpperCase() as 'POST',
              url: path,
              payload: deep(2000),
              headers: { 'content-type': 'application/json', accept: 'application/json' },
            });
            expect([method, path, form.statusCode, form.json()]).toEqual([method, path, 415, { error: 'Forms must be sent as application/x-www-form-urlencoded' }]);
            continue;
          }
          const res = await t.api.request(method.toUpperCase(), path, { auth: acct.auth, rawBody: deep(2000), headers: { 'content-type': 'application/json' } });
          expect([method, path, res.status, res.body]).toEqual([method, path, 400, { error: TOO_DEEP }]);
          checked++;
        }
      }
      expect(checked).toBeGreaterThanOrEqual(15);
    });

    it('still takes an idempotent send whose extra field nests to the limit (validation and fingerprint bounded)', async () => {
      const body = `{"messages":[{"to":"0412345678","message":"hi","sender":"Brand"}],"extra":${'['.repeat(30)}${']'.repeat(30)}}`;
      const headers = { 'content-type': 'application/json', 'idempotency-key': `deep-${acct.accountId}` };
      const first = await t.api.post('/v1/messages', { auth: acct.auth, rawBody: body, headers });
      const replay = await t.api.post('/v1/messages', { auth: acct.auth, rawBody: body, headers });
      expect([first.status, first.body.results[0].status]).toEqual([200, 'success']);
      expect([replay.status, replay.headers['idempotency-replay'], replay.text]).toEqual([200, 'true', first.text]);
    });
  });

  describe('characters PostgreSQL cannot store', () => {
    const NUL = 'a\u0000b';
    const LONE = 'a\ud800b';

    it.each([
      ['POST', '/v1/lists', { name: NUL }, 'name'],
      ['POST', '/v1/contacts', { number: '0412345678', first_name: NUL }, 'first_name'],
      ['POST', '/v1/contacts', { number: '0412345678', field_5: LONE }, 'field_5'],
      ['PATCH', '/v1/contacts', { contact_id: 1, company: NUL }, 'company'],
      ['DELETE', '/v1/messages', { custom_ref: NUL }, 'custom_ref'],
      ['PATCH', '/v1/webhooks', { status: `https://example.com/${NUL}` }, 'status'],
      ['POST', '/v1/unsubscribes', { number: NUL }, 'number'],
      ['POST', '/v1/list-send', { list_id: 1, sender: 'Brand', message: NUL }, 'message'],
      ['POST', '/v1/list-send', { list_id: 1, sender: 'Brand', message: 'hi', custom_ref: LONE }, 'custom_ref'],
    ])('%s %s answers 400 naming the field (%j)', async (method, path, body, field) => {
      const res = await t.api.request(method, path, { auth: acct.auth, body });
      expect([res.status, res.body]).toEqual([400, { error: UNSTORABLE(field) }]);
    });

    it.each([
      ['/v1/contacts', { first_name: NUL }, 'first_name'],
      ['/v1/messages', { custom_ref: NUL }, 'custom_ref'],
      ['/v1/messages', { status: NUL }, 'status'],
      ['/v1/messages', { message_id: NUL }, 'message_id'],
      ['/v1/inbound', { type: NUL }, 'type'],
      ['/v1/unsubscribes', { number: NUL }, 'number'],
    ])('GET %s with a %j filter answers 400 naming the field', async (path, query, field) => {
      const res = await t.api.get(path, { auth: acct.auth, query });
      expect([res.status, res.body]).toEqual([400, { error: UNSTORABLE(field) }]);
    });

    it('reports message text and custom_ref per message in a send, storing the good entries only', async () => {
      const res = await t.api.post('/v1/messages', {
        auth: acct.auth,
        body: {
          enable_unicode: true,
          messages: [
            { to: '0412345678', message: 'ünï\u0000cødé', sender: 'Brand' },
            { to: '0412345679', message: 'ok', sender: 'Brand', custom_ref: NUL },
            { to: '0412345670', message: 'fine 😀', sender: 'Brand' },
          ],
        },
      });
      expect(res.status).toBe(200);
      expect(res.body.results.map((r: { status: string; error?: string }) => [r.status, r.error])).toEqual([
        ['error', UNSTORABLE('message')],
        ['error', UNSTORABLE('custom_ref')],
        ['success', undefined],
      ]);
      expect(res.body.total_cost).toBe(1);
    });

    describe('in a page’s query or form', () => {
      let owner: PageClient;
      beforeAll(async () => {
        const pages = await accountWithOwner(t.app, { test: true, senders: ['Brand'] });
        owner = await signedIn(t.app, pages.ownerEmail);
      });

      /** The page's status and message, and the warning or error lines written while serving it (none: nothing reached PostgreSQL). */
      async function answer(request: () => Promise<{ status: number; html: string }>) {
        const before = logs.raw.length;
        const res = await request();
        const main = /<main[\s\S]*<\/main>/.exec(res.html)?.[0] ?? res.html;
        return { status: res.status, text: textOf(main), logged: logs.lines.slice(before).map((l) => l.msg as string) };
      }

      it.each([
        ['/messages', 'custom_ref'],
        ['/messages', 'message_id'],
        ['/contacts', 'q'],
        ['/contacts/lists', 'q'],
        ['/contacts/opt-outs', 'q'],
        ['/inbox', 'q'],
        ['/campaigns', 'before'],
        ['/audit', 'offset'],
        ['/reports', 'to'],
      ])('GET %s?%s=a%%00b answers a 400 page naming the field', async (path, field) => {
        const res = await answer(() => owner.get(`${path}?${field}=a%00b`));
        expect(res).toEqual({ status: 400, text: expect.stringContaining(`That did not work ${UNSTORABLE(field)}`), logged: [] });
      });

      it('gives a field no exemption for a `:filename` beside it (only the upload parser makes files)', async () => {
        const query = await answer(() => owner.get('/messages?custom_ref=a%00b&custom_ref:filename=x'));
        expect(query).toEqual({ status: 400, text: expect.stringContaining(`That did not work ${UNSTORABLE('custom_ref')}`), logged: [] });
        await owner.get('/contacts');
        const form = await answer(() => owner.post('/contacts', { number: '0412345678', first_name: NUL, 'first_name:filename': 'x.csv' }));
        expect(form).toEqual({ status: 400, text: expect.stringContaining(`That did not work ${UNSTORABLE('first_name')}`), logged: [] });
      });

      it.each([
        ['/contacts', '/contacts', { number: '0412345678', first_name: NUL }, 'first_name'],
        ['/contacts/lists', '/contacts/lists', { name: NUL }, 'name'],
        ['/profile', '/profile/name', { name: NUL }, 'name'],
        ['/users', '/users', { email: `${NUL}@example.com` }, 'email'],
      ])('POST %s answers a 400 page naming the field (%j)', async (page, path, form, field) => {
        await owner.get(page);
        const res = await answer(() => owner.post(path, form));
        expect(res).toEqual({ status: 400, text: expect.stringContaining(`That did not work ${UNSTORABLE(field)}`), logged: [] });
      });

      it('sends a signed-out browser to sign in first, and answers a script on a public page in the envelope', async () => {
        const res = await t.app.inject({ method: 'GET', url: '/messages?custom_ref=%00', headers: { accept: 'text/html' } });
        expect([res.statusCode, res.headers.location]).toEqual([303, '/sign-in?next=%2Fmessages%3Fcustom_ref%3D%2500']);
        const script = await t.app.inject({ method: 'GET', url: '/o/abcdefg?number=%00', headers: { accept: 'application/json' } });
        expect([script.statusCode, script.json()]).toEqual([400, { error: UNSTORABLE('number') }]);
      });
    });

    it('answers a Basic username with a NUL 401 like any unknown username', async () => {
      const auth = `Basic ${Buffer.from(`${acct.username}\u0000:${acct.password}`).toString('base64')}`;
      const res = await t.api.get('/v1/account', { auth });
      expect([res.status, res.body]).toEqual([401, { error: 'Invalid API username or password' }]);
    });
  });

  describe('dates at the edge of what the database represents', () => {
    it.each(['/v1/messages', '/v1/inbound'])('GET %s?to=9999-12-31 and from=0001-01-01 answer 200', async (path) => {
      for (const query of [{ to: '9999-12-31' }, { from: '0001-01-01' }, { from: '9999-12-31', to: '9999-12-31' }] as Array<Record<string, string>>) {
        const res = await t.api.get(path, { auth: acct.auth, query });
        expect([path, query, res.status]).toEqual([path, query, 200]);
      }
    });

    it('finds a message sent today with to=9999-12-31', async () => {
      await t.api.post('/v1/messages', { auth: acct.auth, body: { messages: [{ to: '0412345678', message: 'hi', sender: 'Brand' }] } });
      const res = await t.api.get('/v1/messages', { auth: acct.auth, query: { to: '9999-12-31' } });
      expect(res.body.total).toBe(1);
    });

    it.each([
      ['to', '10000-01-01'],
      ['from', '0000-12-31'],
      ['to', '+10000-01-01'],
    ])('answers 400 for %s=%s', async (which, day) => {
      const res = await t.api.get('/v1/messages', { auth: acct.auth, query: { [which]: day } });
      expect([res.status, res.body]).toEqual([400, { error: `Invalid ${which} date; expected format YYYY-MM-DD` }]);
    });
  });

  describe('strict booleans', () => {
    const send = { messages: [{ to: '0412345678', message: 'hi', sender: 'Brand' }] };
    it.each([
      ['/v1/messages', 'enable_unicode', send],
      ['/v1/messages', 'shorten_urls', send],
      ['/v1/messages', 'ignore_unsubscribes', send],
      ['/v1/list-send', 'ignore_unsubscribes', { list_id: 1, sender: 'Brand', message: 'hi' }],
    ])('POST %s answers 400 for %s of "", "true", 1 and {}', async (path, field, body) => {
      for (const value of ['', 'true', 1, {}]) {
        const res = await t.api.post(path, { auth: acct.auth, body: { ...body, [field]: value } });
        expect([value, res.status, res.body]).toEqual([value, 400, { error: `${field} must be a boolean` }]);
      }
    });

    it('DELETE /v1/lists answers 400 for delete_contacts of "" and keeps the list', async () => {
      const list = await t.api.post('/v1/lists', { auth: acct.auth, body: { name: 'keep me' } });
      const res = await t.api.delete('/v1/lists', { auth: acct.auth, body: { list_id: list.body.list_id, delete_contacts: '' } });
      expect([res.status, res.body]).toEqual([400, { error: 'delete_contacts must be a boolean' }]);
      expect((await t.api.get('/v1/lists', { auth: acct.auth })).body.results.map((l: { name: string }) => l.name)).toEqual(['keep me']);
    });

    it('treats null and absent as the default', async () => {
      const res = await t.api.post('/v1/messages', { auth: acct.auth, body: { ...send, enable_unicode: null, shorten_urls: null } });
      expect([res.status, res.body.ignore_unsubscribes]).toEqual([200, false]);
    });
  });
});
