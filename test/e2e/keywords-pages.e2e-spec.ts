import { accountWithOwner, DashboardAccount, signedIn, userWith } from '../support/dashboard';
import { PageClient, textOf } from '../support/page-client';
import { createAccount, startTestApp, TestApp } from '../support/test-app';

// Signing people in hashes passwords (scrypt) on a shared 2-core machine.
jest.setTimeout(120_000);

/** Keywords › Edit without JavaScript: the form filled from the rule, the API's checks and texts, a move in the order, and who may. */
describe('Dashboard: editing a keyword rule', () => {
  let t: TestApp;
  let acct: DashboardAccount;
  let manager: PageClient;

  beforeAll(async () => {
    t = await startTestApp({ appRole: 'api' });
    acct = await accountWithOwner(t.app, { test: true, senders: ['61400000001', '61400000002'] });
    manager = await signedIn(t.app, await userWith(t.app, acct.accountId, ['manage_contacts']));
  });
  afterAll(() => t.close());

  const rules = async () => ((await t.api.get('/v1/keyword-rules', { auth: acct.auth })).body.results as Array<Record<string, unknown>>).map(({ created_at: _c, ...r }) => r);
  const create = async (body: Record<string, unknown>) => (await t.api.post('/v1/keyword-rules', { auth: acct.auth, body })).body.rule_id as number;
  const form = (fields: Record<string, string>) => ({
    match: 'exact',
    keyword: '',
    number: '',
    reply: '',
    add_to_list_id: '',
    remove_from_list_id: '',
    standing: '',
    position: '',
    ...fields,
  });

  it('fills the form from the rule, saves a change, moves it in the order, and keeps what was typed after an error', async () => {
    const list_id = (await t.api.post('/v1/lists', { auth: acct.auth, body: { name: 'Bread club' } })).body.list_id;
    const first = await create({ match: 'exact', keyword: 'FIRST' });
    const join = await create({ match: 'first_word', keyword: 'JOIN', number: '61400000002', reply: 'Welcome', add_to_list_id: list_id, opt_in: true });

    const list = await manager.get('/keywords');
    expect(list.html).toContain(`href="/keywords/${join}/edit"`);
    const edit = await manager.get(`/keywords/${join}/edit`);
    expect(edit.status).toBe(200);
    expect(textOf(edit.html)).toContain('Edit the rule for JOIN Rule 2 of 2');
    expect(edit.html).toMatch(/<option value="first_word" selected>/);
    expect(edit.html).toMatch(/<option value="61400000002" selected>/);
    expect(edit.html).toMatch(new RegExp(`<option value="${list_id}" selected>Bread club</option>`));
    expect(edit.html).toContain('value="JOIN"');
    expect(edit.html).toContain('>Welcome</textarea>');
    expect(edit.html).toMatch(/value="opt_in" checked/);
    expect(edit.html).toContain(`action="/keywords/${join}"`);

    const bad = await manager.post(`/keywords/${join}`, form({ keyword: 'JO.N', reply: 'Typed reply' }));
    expect(bad.status).toBe(400);
    expect(textOf(bad.html)).toContain('keyword must be 1 to 40 letters, digits or spaces (one word for first_word; a pattern may use * and ? and needs a letter or digit)');
    expect(bad.html).toContain('>Typed reply</textarea>');
    const empty = await manager.post(`/keywords/${join}`, form({ keyword: '', reply: 'Typed reply' }));
    expect([empty.status, textOf(empty.html).includes('Enter a keyword'), empty.html.includes('>Typed reply</textarea>')]).toEqual([400, true, true]);
    const both = await manager.post(`/keywords/${join}`, form({ keyword: 'JOIN', reply: 'x'.repeat(766) }));
    expect([both.status, textOf(both.html).includes('reply exceeds the maximum of 5 parts')]).toEqual([400, true]);

    const saved = await manager.post(`/keywords/${join}`, form({ match: 'exact', keyword: 'join now', reply: 'You are in', remove_from_list_id: String(list_id), position: '1' }));
    expect([saved.status, saved.location]).toEqual([303, '/keywords?notice=keyword_rule_updated']);
    expect(textOf((await manager.get(saved.location!)).html)).toContain('Keyword rule saved.');
    expect(await rules()).toEqual([
      {
        rule_id: join,
        position: 1,
        match: 'exact',
        keyword: 'JOIN NOW',
        number: null,
        reply: 'You are in',
        add_to_list_id: null,
        remove_from_list_id: list_id,
        opt_out: false,
        opt_in: false,
      },
      expect.objectContaining({ rule_id: first, position: 2 }),
    ]);
  });

  it('is not found for another account’s rule or a made-up id, refuses a forged form, and is for manage_contacts only', async () => {
    const other = await createAccount(t.app, { test: true });
    const theirs = (await t.api.post('/v1/keyword-rules', { auth: other.auth, body: { match: 'exact', keyword: 'THEIRS' } })).body.rule_id;
    for (const path of [`/keywords/${theirs}/edit`, '/keywords/x/edit', '/keywords/99999999/edit']) {
      const res = await manager.get(path);
      expect([path, res.status, textOf(res.html).includes('Keyword rule not found')]).toEqual([path, 404, true]);
    }
    await manager.get('/keywords');
    const foreign = await manager.post(`/keywords/${theirs}`, form({ keyword: 'MINE' }));
    expect(foreign.status).toBe(404);
    const mine = await create({ match: 'exact', keyword: 'KEEP' });
    expect((await manager.post(`/keywords/${mine}`, form({ keyword: 'FORGED', _csrf: 'forged' }))).status).toBe(403);
    const reader = await signedIn(t.app, await userWith(t.app, acct.accountId, ['read_inbox']));
    expect((await reader.get(`/keywords/${mine}/edit`)).status).toBe(403);
    expect((await rules()).find((r) => r.rule_id === mine)?.keyword).toBe('KEEP');
  });
});
