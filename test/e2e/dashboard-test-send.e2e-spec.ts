import { DataSource } from 'typeorm';
import { accountWithOwner, DashboardAccount, signedIn, userWith } from '../support/dashboard';
import { PageClient, textOf } from '../support/page-client';
import { startTestApp, TestApp } from '../support/test-app';

jest.setTimeout(120_000);

const OWN = '0412650001';
const OWN_NORMALISED = '61412650001';

/** The value of a hidden or text input on a page. */
function inputValue(html: string, name: string): string {
  const found = new RegExp(`name="${name}" value="([^"]*)"`).exec(html);
  if (!found) throw new Error(`no input ${name} on the page`);
  return found[1];
}

/** The compose page's test send: to the user's own verified mobile only, through the send service, charged, once per test key. */
describe('Dashboard: a test send to your own mobile', () => {
  let t: TestApp;
  let acct: DashboardAccount;
  let owner: PageClient;
  let db: DataSource;

  beforeAll(async () => {
    t = await startTestApp({ appRole: 'api' });
    db = t.app.get(DataSource);
    // A live account's confirmation link is texted and only its digest kept, so the owner confirms their
    // mobile on a test account (its link comes back to the page), which then goes live, to be charged.
    acct = await accountWithOwner(t.app, { test: true, credits: 20, senders: ['Harbour'] });
    owner = await signedIn(t.app, acct.ownerEmail);
    await owner.get('/senders');
    const registered = await owner.post('/senders/own', { number: OWN, label: 'My mobile' });
    expect(registered.location).toMatch(/^\/senders\/confirm\//);
    expect((await owner.get(registered.location!)).status).toBe(200);
    await db.query(`UPDATE accounts SET is_test = false WHERE id = $1`, [acct.accountId]);
  });
  afterAll(() => t.close());

  const balance = async () => (await t.api.get('/v1/account', { auth: acct.auth })).body.credit_balance as number;
  const messagesTo = async (number: string) =>
    (await db.query(`SELECT m.body, s.user_id, s.form_key FROM messages m JOIN sends s ON s.id = m.send_id WHERE m.account_id = $1 AND m.to_number = $2 ORDER BY m.seq`, [
      acct.accountId,
      number,
    ])) as Array<{ body: string; user_id: number; form_key: string }>;
  /** The compose form as rendered, with these fields posted to `action`. */
  async function compose(browser: PageClient, fields: Record<string, string>, action = '/send/test') {
    const page = await browser.get('/send');
    const keys = { form_key: inputValue(page.html, 'form_key'), test_key: page.html.includes('name="test_key"') ? inputValue(page.html, 'test_key') : '' };
    const res = await browser.post(action, { ...keys, test_to: OWN_NORMALISED, to_kind: 'numbers', numbers: '', sender: 'Harbour', when: 'now', message: 'Hello', ...fields });
    return { res, ...keys };
  }

  it('offers the test to the user’s verified mobile, says it is charged, and sends the composed text there only, once per test', async () => {
    const page = await owner.get('/send');
    const text = textOf(page.html);
    expect(text).toContain('Send a test to your mobile');
    expect(text).toContain('goes now to your mobile 0412 650 001 only');
    expect(text).toContain('A test is a real message: it is charged like any send');
    expect(inputValue(page.html, 'test_to')).toBe(OWN_NORMALISED);

    const before = await balance();
    // The recipients typed for the real send are not the test's.
    const { res, form_key, test_key } = await compose(owner, { numbers: '0412650099', message: 'Dinner at 7 {optout}' });
    expect(res.status).toBe(200);
    const shown = textOf(res.html);
    expect(shown).toContain('Test sent to 0412 650 001.');
    expect(res.html).toContain('0412650099</textarea>');
    expect(inputValue(res.html, 'form_key')).toBe(form_key);
    expect(inputValue(res.html, 'test_key')).not.toBe(test_key);
    const sent = await messagesTo(OWN_NORMALISED);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ body: expect.stringMatching(/^Dinner at 7 +OptOut \S+\/o\/\w+$/), form_key: test_key });
    expect(sent[0].user_id).not.toBeNull();
    expect(await messagesTo('61412650099')).toEqual([]);
    expect(await balance()).toBe(before - 1);
    const campaign = /href="\/campaigns\/(\d+)"/.exec(res.html)![1];
    expect(textOf((await owner.get(`/campaigns/${campaign}`)).html)).toContain('1 number');

    // The same test submitted again (twice at once): nothing more is sent or charged.
    const again = await Promise.all(
      [1, 2].map(() =>
        owner.post('/send/test', { form_key, test_key, test_to: OWN_NORMALISED, to_kind: 'numbers', sender: 'Harbour', when: 'now', message: 'Dinner at 7 {optout}' }),
      ),
    );
    for (const r of again) expect(textOf(r.html)).toContain('That test was already sent to 0412 650 001, so nothing was sent again.');
    expect(await messagesTo(OWN_NORMALISED)).toHaveLength(1);
    expect(await balance()).toBe(before - 1);

    // The form's own key is still unused: the real send goes.
    const real = await owner.post('/send', { form_key, to_kind: 'numbers', numbers: '0412650099', sender: 'Harbour', when: 'now', message: 'Dinner at 7' });
    expect(real.location).toMatch(/^\/campaigns\/\d+\?notice=send_queued$/);
    expect(await balance()).toBe(before - 2);
  });

  it('sends no test to a mobile that is not the user’s own verified one, nor without its key', async () => {
    const before = await balance();
    const forged = await compose(owner, { test_to: '61412650002' });
    expect([forged.res.status, textOf(forged.res.html).includes('A test goes only to a mobile you verified yourself; choose one of yours')]).toEqual([400, true]);
    // Another user of the account who may send cannot test to the owner's mobile.
    const colleague = await signedIn(t.app, await userWith(t.app, acct.accountId, ['send_messages']));
    const theirs = await compose(colleague, { test_to: OWN_NORMALISED, test_key: '0190aaaa-0000-7000-8000-00000000000a' });
    expect([theirs.res.status, textOf(theirs.res.html).includes('A test goes only to a mobile you verified yourself; choose one of yours')]).toEqual([400, true]);
    const keyless = await compose(owner, { test_to: OWN_NORMALISED, test_key: '' });
    expect(keyless.res.status).toBe(403);
    const viewer = await signedIn(t.app, await userWith(t.app, acct.accountId, []));
    const refused = await viewer.post('/send/test', {
      form_key: '0190aaaa-0000-7000-8000-00000000000b',
      test_key: '0190aaaa-0000-7000-8000-00000000000c',
      test_to: OWN_NORMALISED,
    });
    expect([refused.status, textOf(refused.html).includes('You do not have permission to do this')]).toEqual([403, true]);
    // The Preview button's route is the Send page's too.
    const preview = await viewer.post('/send/preview', {
      form_key: '0190aaaa-0000-7000-8000-00000000000d',
      to_kind: 'numbers',
      numbers: '0412650003',
      sender: 'Harbour',
      message: 'x',
    });
    expect([preview.status, textOf(preview.html).includes('You do not have permission to do this')]).toEqual([403, true]);
    expect(await messagesTo(OWN_NORMALISED)).toHaveLength(1);
    expect(await balance()).toBe(before);
  });

  it('says how to verify a mobile when the user has none, by what they may do', async () => {
    const sender = await signedIn(t.app, await userWith(t.app, acct.accountId, ['send_messages']));
    const plain = textOf((await sender.get('/send')).html);
    expect(plain).toContain('You have no verified mobile yet. Verifying your mobile needs the Manage sender IDs permission: ask the account’s owner for it');
    expect(plain).not.toContain('Send a test Send');
    const manager = await signedIn(t.app, await userWith(t.app, acct.accountId, ['send_messages', 'manage_senders']));
    const page = await manager.get('/send');
    expect(textOf(page.html)).toContain('You have no verified mobile yet. Add yours under Sender IDs › Send from your own mobile');
    expect(page.html).toContain('href="/senders#own-heading"');
  });

  it('refuses the test with the reason when the user’s mobile opted out, keeping what was typed', async () => {
    await t.api.post('/v1/unsubscribes', { auth: acct.auth, body: { number: OWN } });
    try {
      const before = await balance();
      const { res } = await compose(owner, { message: 'Opted out test' });
      expect(res.status).toBe(400);
      expect(textOf(res.html)).toContain('The test cannot be sent to your mobile: you opted out of this account’s messages');
      expect(res.html).toContain('Opted out test</textarea>');
      expect(await balance()).toBe(before);
    } finally {
      await t.api.delete('/v1/unsubscribes', { auth: acct.auth, body: { number: OWN } });
    }
  });
});
