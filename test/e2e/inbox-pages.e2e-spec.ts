import { DataSource } from 'typeorm';
import { accountWithOwner, DashboardAccount, signedIn, userWith } from '../support/dashboard';
import { PageClient, textOf } from '../support/page-client';
import { startTestApp, TestApp } from '../support/test-app';
import { until } from '../support/wait';

// Signing people in hashes passwords (scrypt) on a shared 2-core machine.
jest.setTimeout(120_000);

/** The Inbox without JavaScript: threads by number with unread counts and search, a thread beside what was sent, a reply through the send path; and who may use it. */
describe('Dashboard: inbox', () => {
  let t: TestApp;
  let acct: DashboardAccount;
  let reader: PageClient;

  beforeAll(async () => {
    t = await startTestApp({ testReceiptDelayMs: 100, sweepIntervalMs: 200 });
    acct = await accountWithOwner(t.app, { test: true, credits: 10, senders: ['61400000001', '61400000002'] });
    reader = await signedIn(t.app, await userWith(t.app, acct.accountId, ['read_inbox']));
  });
  afterAll(() => t.close());

  const inbound = (from: string, message: string, to = '61400000001') => t.api.post('/v1/test-inbound', { auth: acct.auth, body: { from, message, to } });
  const sentTo = (mobile: string): Promise<Array<{ id: string; body: string; sender: string }>> =>
    t.app.get(DataSource).query(`SELECT id, body, sender FROM messages WHERE account_id = $1 AND to_number = $2`, [acct.accountId, mobile]);
  const formKeyOf = (html: string) => /name="form_key" value="([^"]+)"/.exec(html)![1];

  it('lists threads newest first with unread counts, opens one beside what was sent (marking it read), and finds threads by number or text', async () => {
    await t.api.post('/v1/messages', { auth: acct.auth, body: { messages: [{ to: '0412900001', message: 'Your order is ready', sender: '61400000001' }] } });
    await inbound('0412900001', 'Thanks! Can I pick it up at 5?');
    await inbound('0412900001', 'Or 6?');
    await inbound('0412900002', 'Wrong number');
    const list = await reader.get('/inbox');
    expect(list.status).toBe(200);
    const text = textOf(list.html);
    expect(text).toMatch(/61412900002 Wrong number 1 unread .*61412900001 Or 6\? 2 unread/);

    const thread = await reader.get('/inbox/0412900001');
    const entries = textOf(thread.html);
    expect(entries).toMatch(/61412900001 → 61400000001 .* Or 6\? .*Thanks! Can I pick it up at 5\? .*You \(61400000001\) → 61412900001 .* Your order is ready/);
    expect(entries).toContain('Sent from 61400000001, the number they wrote to');
    expect(textOf((await reader.get('/inbox')).html)).toMatch(/61412900001 Or 6\? 0/);

    expect(textOf((await reader.get('/inbox?q=pick+it')).html)).toContain('61412900001');
    expect(textOf((await reader.get('/inbox?q=pick+it')).html)).not.toContain('61412900002');
    expect(textOf((await reader.get('/inbox?q=0412+900+002')).html)).toContain('Wrong number');
    expect(textOf((await reader.get('/inbox?q=nothing-like-this')).html)).toContain('No conversation matches “nothing-like-this”.');
  });

  it('sends a reply from the thread as a priced message from the number they wrote to, which is dispatched; a double submit sends once', async () => {
    await inbound('0412900011', 'Are you open Sunday?', '61400000002');
    const thread = await reader.get('/inbox/61412900011');
    const formKey = formKeyOf(thread.html);
    const before = (await t.api.get('/v1/account', { auth: acct.auth })).body.credit_balance;
    const sent = await reader.post('/inbox/61412900011/reply', { message: 'Yes, 9 to 1', form_key: formKey });
    expect(sent.status).toBe(303);
    expect(sent.location).toBe('/inbox/61412900011?notice=reply_sent');
    const again = await reader.post('/inbox/61412900011/reply', { message: 'Yes, 9 to 1', form_key: formKey });
    expect(again.location).toBe('/inbox/61412900011?notice=reply_sent');

    const sentMessages = await sentTo('61412900011');
    expect(sentMessages).toEqual([{ id: expect.any(String), body: 'Yes, 9 to 1', sender: '61400000002' }]);
    // Priced like any send (one part, one credit); a test account's balance is not debited.
    expect((await t.app.get(DataSource).query(`SELECT cost::int AS cost FROM messages WHERE id = $1`, [sentMessages[0].id]))[0].cost).toBe(100);
    expect((await t.api.get('/v1/account', { auth: acct.auth })).body.credit_balance).toBe(before);
    const messageId = sentMessages[0].id;
    const statusOf = async () => (await t.api.get('/v1/messages', { auth: acct.auth, query: { message_id: messageId } })).body.results[0].status;
    await until(async () => (await statusOf()) === 'delivered', "the reply to be submitted to the (test accounts') simulated carrier and its receipt applied");
    const parts = await t.app.get(DataSource).query(`SELECT smsc_id FROM message_parts WHERE message_id = $1`, [messageId]);
    expect(parts).toEqual([{ smsc_id: expect.stringMatching(/^sim-/) }]);
    expect(textOf((await reader.get('/inbox/61412900011')).html)).toMatch(/You \(61400000002\) → 61412900011 .* Yes, 9 to 1 .*Are you open Sunday\?/);
  });

  it('shows a STOP in the thread and refuses a reply to it with the send’s own text; refuses an empty reply, a forged form and a form without its key', async () => {
    await inbound('0412900021', 'Hello');
    await inbound('0412900021', 'STOP');
    const thread = await reader.get('/inbox/61412900021');
    expect(textOf(thread.html)).toContain('Opted out by replying STOP');
    const formKey = formKeyOf(thread.html);
    const blocked = await reader.post('/inbox/61412900021/reply', { message: 'Sorry to see you go', form_key: formKey });
    expect([blocked.status, textOf(blocked.html).includes('Recipient has unsubscribed')]).toEqual([400, true]);
    expect(blocked.html).toContain('Sorry to see you go</textarea>');
    const empty = await reader.post('/inbox/61412900021/reply', { message: ' ', form_key: formKeyOf(blocked.html) });
    expect([empty.status, textOf(empty.html).includes('Enter a message')]).toEqual([400, true]);
    expect((await reader.post('/inbox/61412900021/reply', { message: 'x', form_key: formKey, _csrf: 'forged' })).status).toBe(403);
    expect((await reader.post('/inbox/61412900021/reply', { message: 'x' })).status).toBe(403);
    expect(await sentTo('61412900021')).toEqual([]);
  });

  it('shows the number’s consent record in the thread, oldest first, with how and the evidence', async () => {
    const empty = textOf((await (await inbound('0412900031', 'Hello?'), reader.get('/inbox/61412900031'))).html);
    expect(empty).toContain('No opt-out or opt-in recorded for this number.');
    await inbound('0412900031', 'STOP');
    await inbound('0412900031', 'START');
    const [stop, start] = (await t.app
      .get(DataSource)
      .query(`SELECT id FROM inbound_messages WHERE account_id = $1 AND from_number = '61412900031' AND body IN ('STOP', 'START') ORDER BY seq`, [acct.accountId])) as Array<{
      id: string;
    }>;
    const text = textOf((await reader.get('/inbox/61412900031')).html);
    expect(text).toMatch(
      new RegExp(
        `Consent record Every change of this number’s standing with you, oldest first When Change How Evidence .+ Opted out Reply reply ${stop.id} .+ Opted in START reply “START”, reply ${start.id}`,
      ),
    );
    expect(text).not.toContain('No opt-out or opt-in recorded');
  });

  it('is for read_inbox only; a number that never wrote, or wrote to another account, is not found', async () => {
    const contacts = await signedIn(t.app, await userWith(t.app, acct.accountId, ['manage_contacts']));
    expect((await contacts.get('/inbox')).status).toBe(403);
    expect((await contacts.get('/inbox/61412900001')).status).toBe(403);
    expect(textOf((await contacts.get('/overview')).html)).not.toContain('Inbox');
    expect(textOf((await reader.get('/overview')).html)).toContain('Inbox');
    expect((await reader.get('/inbox/0412999999')).status).toBe(404);
    expect((await reader.get('/inbox/not-a-number')).status).toBe(404);
    const other = await accountWithOwner(t.app);
    const stranger = await signedIn(t.app, await userWith(t.app, other.accountId, ['read_inbox']));
    const res = await stranger.get('/inbox/61412900001');
    expect([res.status, textOf(res.html).includes('Conversation not found')]).toEqual([404, true]);
  });
});
