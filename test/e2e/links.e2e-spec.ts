import { DataSource } from 'typeorm';
import { AppConfig } from '../../src/config/app-config';
import { analyseMessage } from '../../src/common/sms';
import { UnitOfWork } from '../../src/database/unit-of-work';
import { LinkClicksService } from '../../src/links/link-clicks.service';
import { LinkDraft, recodeText } from '../../src/links/link-rewriter';
import { LinkStore } from '../../src/links/link-store.service';
import { LinksRepository } from '../../src/links/links.repository';
import { createAccount, startTestApp, TestAccount, TestApp } from '../support/test-app';

const BASE = 'https://sms.test';
const SHORT = /https:\/\/sms\.test\/([0-9A-Za-z]{7})/g;
const BROWSER = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';

async function waitFor(check: () => Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('condition not reached');
    await new Promise((r) => setTimeout(r, 20));
  }
}

const codesIn = (text: string) => [...text.matchAll(SHORT)].map((m) => m[1]);

describe('Shortened links: shorten_urls, GET /{code} and GET /v1/link-clicks', () => {
  let t: TestApp;
  let acct: TestAccount;

  beforeAll(async () => {
    // No delivery workers: messages stay as sent by the API.
    t = await startTestApp({ appRole: 'api', shortLinkBase: BASE });
  });
  beforeEach(async () => {
    acct = await createAccount(t.app, { test: true, senders: ['Brand', '61400000001'] });
  });
  afterAll(() => t.close());

  const send = async (messages: Array<Record<string, unknown>>, extra: Record<string, unknown> = { shorten_urls: true }, a = acct) => {
    const res = await t.api.post('/v1/messages', { auth: a.auth, body: { ...extra, messages } });
    expect(res.status).toBe(200);
    return res.body;
  };
  const follow = (code: string, headers: Record<string, string> = { 'user-agent': BROWSER }, method: 'GET' | 'HEAD' = 'GET') => t.app.inject({ method, url: `/${code}`, headers });
  const clicks = (query: Record<string, string | number>, a = acct) => t.api.get('/v1/link-clicks', { auth: a.auth, query });

  describe('rewriting', () => {
    it('replaces several URLs of one message, leaving punctuation after them, one code per recipient and URL', async () => {
      const body = await send([
        { to: '0412000001', sender: 'Brand', message: 'Sale: https://shop.example/sale?id=1&x=2. Terms (https://shop.example/terms), more at http://blog.example/post!' },
        { to: '0412000002', sender: 'Brand', message: 'Sale: https://shop.example/sale?id=1&x=2. Terms (https://shop.example/terms), more at http://blog.example/post!' },
      ]);
      const [one, two] = body.results;
      expect(one.message).toMatch(/^Sale: https:\/\/sms\.test\/\w{7}\. Terms \(https:\/\/sms\.test\/\w{7}\), more at https:\/\/sms\.test\/\w{7}!$/);
      const codes = [...codesIn(one.message), ...codesIn(two.message)];
      expect(new Set(codes).size).toBe(6);
      const rows = await t.app
        .get(DataSource)
        .query(
          `SELECT l.code, m.to_number AS recipient, l.url, l.message_id FROM short_links l JOIN messages m ON m.id = l.message_id WHERE l.account_id = $1 AND l.kind = 'url' ORDER BY recipient, url`,
          [acct.accountId],
        );
      expect(rows).toHaveLength(6);
      expect(rows.filter((r: { recipient: string }) => r.recipient === '61412000001').map((r: { url: string }) => r.url)).toEqual([
        'http://blog.example/post',
        'https://shop.example/sale?id=1&x=2',
        'https://shop.example/terms',
      ]);
      expect(rows.every((r: { message_id: string; recipient: string }) => r.message_id === (r.recipient === '61412000001' ? one.message_id : two.message_id))).toBe(true);
    });

    it('leaves a URL to a loopback or private address, or one carrying credentials, as written: no short link on our domain', async () => {
      const text = 'Admin http://127.0.0.1:8080/x, router http://192.168.0.1/, login https://user:secret@shop.example/y, meta http://169.254.169.254/latest';
      const body = await send([{ to: '0412000001', sender: 'Brand', message: text }]);
      expect(body.results[0].message).toBe(text);
      const rows = await t.app.get(DataSource).query(`SELECT count(*)::int AS n FROM short_links WHERE account_id = $1 AND kind = 'url'`, [acct.accountId]);
      expect(rows).toEqual([{ n: 0 }]);
    });

    it('counts parts and cost on the final text: a long URL that made two parts becomes one', async () => {
      const long = `Offer ${'https://shop.example/' + 'p'.repeat(160)}`;
      const [plain] = (await send([{ to: '0412000003', sender: 'Brand', message: long }], {})).results;
      const [short] = (await send([{ to: '0412000003', sender: 'Brand', message: long }])).results;
      expect(plain.cost).toBe(2);
      expect(short.message).toMatch(/^Offer https:\/\/sms\.test\/\w{7}$/);
      expect(short.cost).toBe(1);
      const stored = (await t.api.get('/v1/messages', { auth: acct.auth, query: { message_id: short.message_id } })).body.results[0];
      expect(stored.message).toBe(short.message);
    });

    it('prices a short link at the part boundary on the final text: 160 characters is one part, 161 two', async () => {
      const shortLength = `${BASE}/`.length + 7; // 24
      const url = `https://x.example/${'q'.repeat(60)}`;
      const [fits] = (await send([{ to: '0412000004', sender: 'Brand', message: `${'a'.repeat(160 - 1 - shortLength)} ${url}` }])).results;
      expect(fits.message).toHaveLength(160);
      expect(fits.cost).toBe(1);
      const [over] = (await send([{ to: '0412000004', sender: 'Brand', message: `${'a'.repeat(161 - 1 - shortLength)} ${url}` }])).results;
      expect(over.message).toHaveLength(161);
      expect(over.cost).toBe(2);
      // A link across the boundary of a multipart message stays whole in the text that is sent and counted.
      const [spans] = (await send([{ to: '0412000004', sender: 'Brand', message: `${'a'.repeat(150)} ${url} tail` }])).results;
      expect(spans.message).toMatch(/^a{150} https:\/\/sms\.test\/\w{7} tail$/);
      expect(analyseMessage(spans.message, false)).toMatchObject({ parts: spans.cost });
      expect(spans.cost).toBe(2);
    });

    it('shortens Unicode text (UCS-2) and personalised URLs, each recipient their own target', async () => {
      await t.api.post('/v1/contacts', { auth: acct.auth, body: { number: '0412000005', first_name: 'Zoë' } });
      await t.api.post('/v1/contacts', { auth: acct.auth, body: { number: '0412000006', first_name: 'Ann' } });
      const body = await send(
        [
          { to: '0412000005', sender: 'Brand', message: 'Привет {first_name}: https://shop.example/u/{number}?n={first_name} 😀' },
          { to: '0412000006', sender: 'Brand', message: 'Привет {first_name}: https://shop.example/u/{number}?n={first_name} 😀' },
        ],
        { shorten_urls: true, enable_unicode: true },
      );
      expect(body.results[0].message).toMatch(/^Привет Zoë: https:\/\/sms\.test\/\w{7} 😀$/);
      expect(body.results[1].message).toMatch(/^Привет Ann: https:\/\/sms\.test\/\w{7} 😀$/);
      const targets = await Promise.all(body.results.map(async (r: { message: string }) => (await follow(codesIn(r.message)[0])).headers.location));
      expect(targets).toEqual(['https://shop.example/u/61412000005?n=Zo%C3%AB', 'https://shop.example/u/61412000006?n=Ann']);
    });

    it('leaves links as written without shorten_urls, and shortens in list-send with the extension', async () => {
      const [r] = (await send([{ to: '0412000007', sender: 'Brand', message: 'See https://shop.example/a' }], {})).results;
      expect(r.message).toBe('See https://shop.example/a');
      const list_id = (await t.api.post('/v1/lists', { auth: acct.auth, body: { name: 'Links' } })).body.list_id;
      for (const number of ['0412000008', '0412000009']) await t.api.post('/v1/list-contacts', { auth: acct.auth, body: { list_id, number } });
      const sent = await t.api.post('/v1/list-send', { auth: acct.auth, body: { list_id, sender: 'Brand', message: 'See https://shop.example/list', shorten_urls: true } });
      expect(sent.status).toBe(200);
      const page = (await clicks({ send_id: sent.body.send_id })).body;
      expect(page.total).toBe(2);
      expect(page.results.map((x: { to: string; url: string }) => [x.to, x.url]).sort()).toEqual([
        ['61412000008', 'https://shop.example/list'],
        ['61412000009', 'https://shop.example/list'],
      ]);
      const bodies = await t.app.get(DataSource).query(`SELECT body FROM messages WHERE send_id = $1`, [sent.body.send_id]);
      expect(bodies.map((b: { body: string }) => b.body).every((b: string) => /^See https:\/\/sms\.test\/\w{7}$/.test(b))).toBe(true);
      const bad = await t.api.post('/v1/list-send', { auth: acct.auth, body: { list_id, sender: 'Brand', message: 'x', shorten_urls: 'yes' } });
      expect([bad.status, bad.body]).toEqual([400, { error: 'shorten_urls must be a boolean' }]);
    });
  });

  it('redraws a code another send already took, in the same transaction, without failing the send (real table)', async () => {
    const db = t.app.get(DataSource);
    const [first] = (await send([{ to: '0412000090', sender: 'Brand', message: 'https://a.example/first' }])).results;
    const [taken] = codesIn(first.message);
    const [{ id: sendId }] = await db.query(`INSERT INTO sends (account_id, kind) VALUES ($1, 'batch') RETURNING id`, [acct.accountId]);
    const texts: Record<string, string> = { m: `Go ${BASE}/${taken} and ${BASE}/FreeCd1` };
    const drafts: LinkDraft[] = [
      { code: taken, kind: 'url', url: 'https://b.example/second', messageId: '3f2c1a9e-8b7d-4e6f-9a1b-2c3d4e5f6a7b' },
      { code: 'FreeCd1', kind: 'url', url: 'https://b.example/third', messageId: '3f2c1a9e-8b7d-4e6f-9a1b-2c3d4e5f6a7b' },
    ];
    await t.app
      .get(UnitOfWork)
      .run((tx) => t.app.get(LinkStore).store(acct.accountId, sendId, { drafts, recode: (d, code) => (texts.m = recodeText(texts.m, BASE, d.kind, d.code, code)) }, tx));
    expect(drafts[0].code).not.toBe(taken);
    expect(texts.m).toBe(`Go ${BASE}/${drafts[0].code} and ${BASE}/FreeCd1`);
    const rows = await db.query(`SELECT code, url FROM short_links WHERE code = ANY($1) ORDER BY url`, [[taken, drafts[0].code, 'FreeCd1']]);
    expect(rows).toEqual([
      { code: taken, url: 'https://a.example/first' },
      { code: drafts[0].code, url: 'https://b.example/second' },
      { code: 'FreeCd1', url: 'https://b.example/third' },
    ]);
  });

  it.each([
    ['commits', true],
    ['rolls back', false],
  ])('waits for a send holding one of its codes uncommitted, and when that send %s, draws anew only if it must (real table)', async (_how, commits) => {
    const db = t.app.get(DataSource);
    const held = commits ? 'HeldC12' : 'HeldR12';
    const [{ id: sendId }] = await db.query(`INSERT INTO sends (account_id, kind) VALUES ($1, 'batch') RETURNING id`, [acct.accountId]);
    const holder = db.createQueryRunner();
    await holder.connect();
    try {
      await holder.startTransaction();
      await holder.query(
        `INSERT INTO short_links (code, account_id, send_id, message_id, kind, url) VALUES ($3, $1, $2, '3f2c1a9e-8b7d-4e6f-9a1b-2c3d4e5f6a70', 'url', 'https://a.example/held')`,
        [acct.accountId, sendId, held],
      );
      const texts: Record<string, string> = { m: `Go ${BASE}/${held}` };
      const drafts: LinkDraft[] = [{ code: held, kind: 'url', url: `https://b.example/${held}`, messageId: '3f2c1a9e-8b7d-4e6f-9a1b-2c3d4e5f6a71' }];
      const storing = t.app
        .get(UnitOfWork)
        .run((tx) => t.app.get(LinkStore).store(acct.accountId, sendId, { drafts, recode: (d, code) => (texts.m = recodeText(texts.m, BASE, d.kind, d.code, code)) }, tx));
      // The insert waits on the holder's row lock (seen in pg_locks) until the holder ends.
      await waitFor(async () => (await db.query(`SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'transactionid' AND NOT granted`))[0].n > 0);
      if (commits) await holder.commitTransaction();
      else await holder.rollbackTransaction();
      await storing;
      const mine = await db.query(`SELECT code, url FROM short_links WHERE url = $1`, [`https://b.example/${held}`]);
      expect(mine).toEqual([{ code: drafts[0].code, url: `https://b.example/${held}` }]);
      expect(texts.m).toBe(`Go ${BASE}/${drafts[0].code}`);
      if (commits) expect(drafts[0].code).not.toBe(held);
      else expect(drafts[0].code).toBe(held);
    } finally {
      await holder.release();
    }
  });

  describe('redirects', () => {
    it('answers 302 to the original URL, never cached, and counts each click with its first and last time', async () => {
      const [r] = (await send([{ to: '0412000010', sender: 'Brand', message: 'Go https://shop.example/x?a=1#frag' }])).results;
      const [code] = codesIn(r.message);
      const first = await follow(code);
      expect([first.statusCode, first.headers.location, first.headers['cache-control']]).toEqual([302, 'https://shop.example/x?a=1#frag', 'no-store']);
      await follow(code);
      await follow(code);
      const page = (await clicks({ message_id: r.message_id })).body;
      expect(page).toEqual({
        status: 'complete',
        total: 1,
        limit: 100,
        offset: 0,
        results: [
          {
            message_id: r.message_id,
            to: '61412000010',
            url: 'https://shop.example/x?a=1#frag',
            short_url: `${BASE}/${code}`,
            clicks: 3,
            first_clicked_at: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
            last_clicked_at: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
          },
        ],
      });
      expect(page.results[0].first_clicked_at <= page.results[0].last_clicked_at).toBe(true);
    });

    it('appends clicks and folds them set-based: no click updates the link row itself', async () => {
      const [r] = (await send([{ to: '0412000011', sender: 'Brand', message: 'Go https://shop.example/fold' }])).results;
      const [code] = codesIn(r.message);
      await Promise.all(Array.from({ length: 20 }, () => follow(code)));
      const db = t.app.get(DataSource);
      const [before] = await db.query(`SELECT clicks, (SELECT count(*)::int FROM link_click_events WHERE code = $1) AS pending FROM short_links WHERE code = $1`, [code]);
      expect(before.clicks + before.pending).toBe(20);
      await t.app.get(LinkClicksService).foldAll();
      const [after] = await db.query(`SELECT clicks, (SELECT count(*)::int FROM link_click_events WHERE code = $1) AS pending FROM short_links WHERE code = $1`, [code]);
      expect(after).toEqual({ clicks: 20, pending: 0 });
    });

    it('counts every hit exactly once when folds run at once: several folders and link-clicks reads over the same links', async () => {
      const body = await send(
        Array.from({ length: 6 }, (_, i) => ({ to: `04120001${10 + i}`, sender: 'Brand', message: `Go https://shop.example/busy/${i} and https://shop.example/also/${i}` })),
      );
      const codes = body.results.flatMap((r: { message: string }) => codesIn(r.message));
      const db = t.app.get(DataSource);
      // Hits appended in opposite code orders, so two folds taking them in batches meet the same links in different orders.
      const order = [...codes, ...[...codes].reverse()];
      await db.query(`INSERT INTO link_click_events (code, preview) SELECT c, false FROM unnest($1::text[]) AS c, generate_series(1, 25)`, [order]);
      const service = t.app.get(LinkClicksService);
      const repo = t.app.get(LinksRepository);
      await Promise.all([
        ...Array.from({ length: 6 }, () => repo.fold(7)),
        ...Array.from({ length: 3 }, () => clicks({ send_id: body.send_id, limit: 100 }).then((res) => expect(res.status).toBe(200))),
        service.foldAll(),
      ]);
      await service.foldAll();
      const rows = await db.query(`SELECT clicks FROM short_links WHERE code = ANY($1)`, [codes]);
      expect(rows).toHaveLength(12);
      expect(rows.every((r: { clicks: number }) => r.clicks === 50)).toBe(true);
    });

    it('records link-preview fetchers, scanners and HEAD requests apart, never as clicks', async () => {
      const [r] = (await send([{ to: '0412000012', sender: 'Brand', message: 'Go https://shop.example/preview' }])).results;
      const [code] = codesIn(r.message);
      for (const ua of ['facebookexternalhit/1.1', 'WhatsApp/2.23.20.0', 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)', 'TelegramBot (like TwitterBot)']) {
        expect((await follow(code, { 'user-agent': ua })).statusCode).toBe(302);
      }
      expect((await follow(code, { 'user-agent': BROWSER }, 'HEAD')).statusCode).toBe(302);
      const page = (await clicks({ message_id: r.message_id })).body;
      expect(page.results[0]).toMatchObject({ clicks: 0, first_clicked_at: null, last_clicked_at: null });
      const [{ preview_hits }] = await t.app.get(DataSource).query(`SELECT preview_hits FROM short_links WHERE code = $1`, [code]);
      expect(preview_hits).toBe(5);
      await follow(code);
      expect((await clicks({ message_id: r.message_id })).body.results[0].clicks).toBe(1);
    });

    it('stops redirecting after the retention period', async () => {
      const [r] = (await send([{ to: '0412000013', sender: 'Brand', message: 'Go https://shop.example/old' }])).results;
      const [code] = codesIn(r.message);
      const db = t.app.get(DataSource);
      await db.query(`UPDATE short_links SET created_at = now() - interval '179 days' WHERE code = $1`, [code]);
      expect((await follow(code)).statusCode).toBe(302);
      await db.query(`UPDATE short_links SET created_at = now() - interval '181 days' WHERE code = $1`, [code]);
      const gone = await follow(code, { 'user-agent': BROWSER, accept: 'text/html' });
      expect(gone.statusCode).toBe(404);
      expect(gone.headers['content-type']).toMatch(/^text\/html/);
    });

    it('refuses every short link (429 with Retry-After) to an address that followed too many unknown codes; real links from it do not count, other addresses unaffected', async () => {
      const body = await send([{ to: '0412000001', sender: 'Brand', message: 'https://shop.example/u/secret-offer' }]);
      const [code] = codesIn(body.results[0].message);
      const from = (remoteAddress: string, c: string, accept = 'application/json') =>
        t.app.inject({ method: 'GET', url: `/${c}`, remoteAddress, headers: { 'user-agent': BROWSER, accept } });
      const guesser = '10.77.0.1';
      for (let i = 0; i < 5; i++) expect((await from(guesser, code)).statusCode).toBe(302);
      const limit = t.app.get(AppConfig).shortLinkMissesPerIp;
      for (let i = 0; i < limit; i++) expect((await from(guesser, `Zz${String(i).padStart(5, '0')}`)).statusCode).toBe(404);
      const refused = await from(guesser, code);
      expect([refused.statusCode, refused.json()]).toEqual([429, { error: 'Too many unknown links from this connection. Please try again in a few minutes.' }]);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(1);
      expect(refused.headers.location).toBeUndefined();
      const page = await from(guesser, 'Zz99999', 'text/html');
      expect([page.statusCode, page.headers['content-type']]).toEqual([429, expect.stringMatching(/^text\/html/)]);
      expect(page.body).toContain('Too many unknown links from this connection');
      expect((await from('10.77.0.2', code)).statusCode).toBe(302);
    });

    it('answers an unknown code with a small 404 page for browsers and the envelope for API clients', async () => {
      const page = await follow('ZZZZZZ9', { 'user-agent': BROWSER, accept: 'text/html' });
      expect(page.statusCode).toBe(404);
      expect(page.body).toContain('Page not found');
      expect(page.body).toContain('This link is not valid, or it has expired.');
      // Opened by a message's recipient: no way into the business's dashboard.
      expect(page.body).not.toContain('Go to the overview');
      const api = await follow('ZZZZZZ9', { accept: 'application/json' });
      expect([api.statusCode, api.json()]).toEqual([404, { error: 'Not found' }]);
      // Only 7-character codes are short links: other paths keep the plain 404, other methods the 405.
      const other = await t.app.inject({ method: 'POST', url: '/no-such-path' });
      expect([other.statusCode, other.json()]).toEqual([404, { error: 'Not found' }]);
      const post = await t.app.inject({ method: 'POST', url: '/ZZZZZZ9' });
      expect([post.statusCode, post.json(), post.headers.allow]).toEqual([405, { error: 'Invalid request method. Allowed methods: GET' }, 'GET']);
    });

    it.each(['/%00abcde', '/abc%00de', '/o/%00', '/o/abc%00defgh', '/o/%F0%9F%98%80', '/o/' + 'x'.repeat(300)])('never answers %s with a 5xx', async (url) => {
      const res = await t.app.inject({ method: 'GET', url, headers: { accept: 'application/json' } });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ error: 'Not found' });
    });
  });

  describe('GET /v1/link-clicks', () => {
    it('pages a send’s links and keeps every account to its own', async () => {
      const body = await send(
        Array.from({ length: 5 }, (_, i) => ({ to: `04120001${String(i).padStart(2, '0')}`, sender: 'Brand', message: `A https://a.example/${i} B https://b.example/${i}` })),
      );
      const all = (await clicks({ send_id: body.send_id })).body;
      expect(all.total).toBe(10);
      const first = (await clicks({ send_id: body.send_id, limit: 4, offset: 0 })).body;
      const rest = (await clicks({ send_id: body.send_id, limit: 4, offset: 4 })).body;
      const last = (await clicks({ send_id: body.send_id, limit: 4, offset: 8 })).body;
      expect([first.results.length, rest.results.length, last.results.length]).toEqual([4, 4, 2]);
      const seen = [...first.results, ...rest.results, ...last.results].map((x: { short_url: string }) => x.short_url);
      expect(new Set(seen).size).toBe(10);
      expect(seen.sort()).toEqual(all.results.map((x: { short_url: string }) => x.short_url).sort());

      const other = await createAccount(t.app, { test: true, senders: ['Brand'] });
      expect((await clicks({ send_id: body.send_id }, other)).body).toMatchObject({ total: 0, results: [] });
      expect((await clicks({ message_id: body.results[0].message_id }, other)).body).toMatchObject({ total: 0, results: [] });
      expect((await clicks({ message_id: body.results[0].message_id })).body.total).toBe(2);
    });

    it('answers 400 without message_id or send_id, and for a bad send_id or limit; an unknown message is an empty page', async () => {
      expect((await clicks({})).body).toEqual({ error: 'message_id or send_id is required' });
      expect((await clicks({ send_id: 'x' })).body).toEqual({ error: 'send_id must be a positive integer' });
      expect((await clicks({ send_id: 1, limit: 0 })).body).toEqual({ error: 'limit must be between 1 and 200' });
      expect((await clicks({ message_id: 'not-a-uuid' })).body).toEqual({ status: 'complete', total: 0, limit: 100, offset: 0, results: [] });
      expect((await t.api.get('/v1/link-clicks', { query: { send_id: 1 } })).status).toBe(401);
    });
  });
});
