import { accountWithOwner, DashboardAccount, signedIn, userWith } from '../support/dashboard';
import { PageClient, textOf } from '../support/page-client';
import { startTestApp, TestApp } from '../support/test-app';

// Signing people in hashes passwords (scrypt) on a shared 2-core machine.
jest.setTimeout(120_000);

/** The Opt-outs page without JavaScript: list and search, add (which blocks sends), remove after a confirmation, CSV export, the audit log; and who may use it. */
describe('Dashboard: opt-outs', () => {
  let t: TestApp;
  let acct: DashboardAccount;
  let browser: PageClient;

  beforeAll(async () => {
    t = await startTestApp({ appRole: 'api' });
    acct = await accountWithOwner(t.app, { credits: 10, senders: ['Brand'] });
    browser = await signedIn(t.app, await userWith(t.app, acct.accountId, ['manage_contacts']));
  });
  afterAll(() => t.close());

  const send = (to: string) => t.api.post('/v1/messages', { auth: acct.auth, body: { messages: [{ to, message: 'Hi', sender: 'Brand' }] } });

  it('adds a number (it leaves its lists and the next send to it is refused), lists and finds it, and says when it was already there', async () => {
    const list = (await t.api.post('/v1/lists', { auth: acct.auth, body: { name: 'Members' } })).body.list_id;
    await t.api.post('/v1/list-contacts', { auth: acct.auth, body: { list_id: list, number: '0412950001' } });
    await browser.get('/contacts/opt-outs');
    const added = await browser.post('/contacts/opt-outs', { number: '0412 950 001' });
    expect(added.location).toBe('/contacts/opt-outs?notice=optout_added');
    const page = textOf((await browser.get(added.location!)).html);
    expect(page).toContain('Added to the opt-outs.');
    expect(page).toMatch(/61412950001 Added by the account \(API or dashboard\)/);
    expect((await t.api.get('/v1/list-contacts', { auth: acct.auth, query: { list_id: list } })).body.total).toBe(0);
    const refused = await send('0412950001');
    expect(refused.body.results[0]).toMatchObject({ status: 'blocked', error: 'Recipient has unsubscribed' });
    // The consent record says it was the dashboard, and who.
    const records = (await t.api.get('/v1/consent', { auth: acct.auth, query: { number: '0412950001' } })).body.results;
    expect(records).toMatchObject([{ change: 'opt_out', source: 'dashboard', user_id: expect.any(Number), api_key_id: null, detail: null }]);

    expect((await browser.post('/contacts/opt-outs', { number: '61412950001' })).location).toBe('/contacts/opt-outs?notice=optout_already');
    await t.api.post('/v1/unsubscribes', { auth: acct.auth, body: { number: '0412950002' } });
    expect(textOf((await browser.get('/contacts/opt-outs?q=0412+950+002')).html)).toMatch(/61412950002/);
    expect(textOf((await browser.get('/contacts/opt-outs?q=0412950002')).html)).not.toContain('61412950001');
    expect(textOf((await browser.get('/contacts/opt-outs?q=0499')).html)).toContain('No opt-out matches “0499”.');
  });

  it('refuses an empty or bad number with the API’s texts, keeping what was typed', async () => {
    await browser.get('/contacts/opt-outs');
    const bad = await browser.post('/contacts/opt-outs', { number: '0298765432' });
    expect([bad.status, textOf(bad.html).includes('Invalid phone number format'), bad.html.includes('value="0298765432"')]).toEqual([400, true, true]);
    const empty = await browser.post('/contacts/opt-outs', { number: '' });
    expect([empty.status, textOf(empty.html).includes('Enter a mobile number')]).toEqual([400, true]);
  });

  it('removes a number only after a confirmation that says what removing means; sends reach it again; both changes are in the audit log', async () => {
    await browser.get('/contacts/opt-outs');
    await browser.post('/contacts/opt-outs', { number: '0412950010' });
    const confirm = await browser.get('/contacts/opt-outs/0412950010/remove');
    expect(textOf(confirm.html)).toContain('Remove 61412950010 from the opt-outs?');
    expect(textOf(confirm.html)).toContain('Removing it means the account can message this number again');
    expect((await browser.post('/contacts/opt-outs/61412950010/remove', { _csrf: 'forged' })).status).toBe(403);
    const removed = await browser.post('/contacts/opt-outs/61412950010/remove');
    expect(removed.location).toBe('/contacts/opt-outs?notice=optout_removed');
    expect((await send('0412950010')).body.results[0].status).toBe('success');
    expect((await browser.post('/contacts/opt-outs/61412950010/remove')).status).toBe(404);
    expect((await browser.get('/contacts/opt-outs/61412950010/remove')).status).toBe(404);

    const owner = await signedIn(t.app, acct.ownerEmail);
    const audit = textOf((await owner.get('/audit')).html);
    expect(audit).toContain('Removed a number from the opt-out list (it can be messaged again) 61412950010');
    expect(audit).toContain('Added a number to the opt-out list 61412950010');
  });

  it('exports every opt-out as CSV, times in the account’s zone named in the header (as every export)', async () => {
    const other = await accountWithOwner(t.app);
    const owner = await signedIn(t.app, other.ownerEmail);
    expect((await owner.post('/settings/time-zone', { time_zone: 'Australia/Perth' })).status).toBe(303);
    await t.api.post('/v1/unsubscribes', { auth: other.auth, body: { number: '0412950020' } });
    const reader = await signedIn(t.app, await userWith(t.app, other.accountId, ['manage_contacts']));
    await t.api.post('/v1/unsubscribes', { auth: other.auth, body: { number: '0412950021' } });
    const csv = await reader.get('/contacts/opt-outs/export');
    expect(csv.status).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    // Perth keeps UTC+8 all year: the API's UTC time eight hours on.
    const listed = (await t.api.get('/v1/unsubscribes', { auth: other.auth })).body.results as Array<{ number: string; unsubscribed_at: string }>;
    const perth = (number: string) => {
      const utc = listed.find((r) => r.number === number)!.unsubscribed_at;
      return `${new Date(Date.parse(`${utc.replace(' ', 'T')}Z`) + 8 * 3_600_000).toISOString().slice(0, 19).replace('T', ' ')} AWST`;
    };
    expect(csv.html).toBe(`number,source,unsubscribed_at (Australia/Perth)\r\n61412950020,api,${perth('61412950020')}\r\n61412950021,api,${perth('61412950021')}\r\n`);
  });

  it('is for manage_contacts only', async () => {
    const inbox = await signedIn(t.app, await userWith(t.app, acct.accountId, ['read_inbox']));
    expect((await inbox.get('/contacts/opt-outs')).status).toBe(403);
    expect((await inbox.get('/contacts/opt-outs/export')).status).toBe(403);
    expect((await inbox.post('/contacts/opt-outs', { number: '0412950030' })).status).toBe(403);
    expect((await t.api.get('/v1/unsubscribes', { auth: acct.auth, query: { number: '0412950030' } })).body.total).toBe(0);
  });
});
