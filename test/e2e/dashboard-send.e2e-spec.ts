import { DataSource } from 'typeorm';
import { accountWithOwner, DashboardAccount, signedIn, userWith } from '../support/dashboard';
import { PageClient, textOf } from '../support/page-client';
import { startTestApp, TestApp } from '../support/test-app';

// Signing people in hashes passwords (scrypt) on a shared 2-core machine.
jest.setTimeout(120_000);

/** The value of a hidden or text input on a page. */
function inputValue(html: string, name: string): string {
  const found = new RegExp(`name="${name}" value="([^"]*)"`).exec(html);
  if (!found) throw new Error(`no input ${name} on the page`);
  return found[1];
}

/** The compose page without JavaScript: preview, send, schedule in the account's zone, the double submit, lists, cancel, and who may do it. */
describe('Dashboard: send and campaigns', () => {
  let t: TestApp;
  let acct: DashboardAccount;
  let sender: PageClient;

  beforeAll(async () => {
    t = await startTestApp();
    acct = await accountWithOwner(t.app, { credits: 100, senders: ['Harbour'] });
    sender = await signedIn(t.app, await userWith(t.app, acct.accountId, ['send_messages']));
  });
  afterAll(() => t.close());

  const balance = async (a = acct) => (await t.api.get('/v1/account', { auth: a.auth })).body.credit_balance as number;
  /** The compose form as rendered (with its own form key), then these fields posted to `action`. */
  async function compose(fields: Record<string, string>, action = '/send', browser = sender) {
    const page = await browser.get('/send');
    expect(page.status).toBe(200);
    const formKey = inputValue(page.html, 'form_key');
    const res = await browser.post(action, { form_key: formKey, to_kind: 'numbers', sender: 'Harbour', when: 'now', ...fields });
    return { res, formKey };
  }
  /** What the API answers as a send's (first) message's scheduled_for: the interface's UTC form. */
  async function apiScheduledFor(sendId: number): Promise<string> {
    const [row] = await t.app.get(DataSource).query(`SELECT id FROM messages WHERE send_id = $1`, [sendId]);
    return (await t.api.get('/v1/messages', { auth: acct.auth, query: { message_id: row.id } })).body.results[0].scheduled_for;
  }
  const sendRow = async (id: number) =>
    (await t.app.get(DataSource).query(`SELECT account_id, user_id, form_key, kind, scheduled_for FROM sends WHERE id = $1`, [id]))[0] as {
      account_id: number;
      user_id: number | null;
      form_key: string | null;
      scheduled_for: Date | null;
    };

  it('previews on the server the text, encoding, parts and cost by the API’s rules, and sends nothing', async () => {
    const before = await balance();
    const { res } = await compose({ numbers: '0412 700 001\n+61412700002', message: 'x'.repeat(161) }, '/send/preview');
    expect(res.status).toBe(200);
    const text = textOf(res.html);
    expect(text).toContain('Encoding GSM-7');
    expect(text).toContain('161 characters, 2 parts a message');
    expect(text).toContain('Recipients 2');
    expect(text).toContain('Parts in all 4');
    expect(text).toContain('Cost 4.00 credits');
    const unicode = await compose({ numbers: '0412700001', message: 'Café ☕ today' }, '/send/preview');
    expect(textOf(unicode.res.html)).toContain('Encoding Unicode (UCS-2)');
    expect(await balance()).toBe(before);
  });

  it('answers the page’s script with the same preview as JSON, and a readable error for what cannot be sent', async () => {
    const page = await sender.get('/send');
    const ok = await sender.post(
      '/send/preview.json',
      { form_key: inputValue(page.html, 'form_key'), to_kind: 'numbers', numbers: '0412700003, 0298765432', sender: 'Harbour', message: 'Hi {first_name}{optout}' },
      { accept: 'application/json' },
    );
    expect(ok.status).toBe(200);
    const body = JSON.parse(ok.html) as Record<string, unknown>;
    expect(body).toMatchObject({ recipients: 1, errorCount: 1, errors: [{ to: '0298765432', error: 'Invalid phone number format' }], totalParts: 1, cost: '1.00' });
    expect((body.sample as { text: string }).text).toMatch(/^Hi +OptOut \S+\/o\/\w+$/);
    const empty = await sender.post('/send/preview.json', { to_kind: 'numbers', numbers: '', sender: 'Harbour', message: 'Hi' }, { accept: 'application/json' });
    expect([empty.status, JSON.parse(empty.html)]).toEqual([400, { error: 'Enter at least one mobile number' }]);
  });

  it('sends to numbers through the API’s send service and shows the campaign; the same form submitted again sends nothing more', async () => {
    const before = await balance();
    const { res, formKey } = await compose({ numbers: '0412700010\n0412700011\n0412 700 010', message: 'Your table is ready' });
    expect(res.status).toBe(303);
    const match = /^\/campaigns\/(\d+)\?notice=send_queued$/.exec(res.location ?? '');
    expect(match).not.toBeNull();
    const sendId = Number(match![1]);
    expect(await balance()).toBe(before - 2);
    const row = await sendRow(sendId);
    expect(row.form_key).toBe(formKey);
    expect(row.user_id).not.toBeNull();
    const stored = await t.app.get(DataSource).query(`SELECT to_number, body FROM messages WHERE send_id = $1 ORDER BY to_number`, [sendId]);
    expect(stored).toEqual([
      { to_number: '61412700010', body: 'Your table is ready' },
      { to_number: '61412700011', body: 'Your table is ready' },
    ]);

    const page = await sender.get(res.location!);
    expect(page.status).toBe(200);
    expect(textOf(page.html)).toContain('Sent: the messages are on their way.');
    expect(textOf(page.html)).toContain('Messages accepted: 2 .');

    // The browser's back button and a second press: the same form key posted again, twice at once.
    const again = await Promise.all(
      [1, 2].map(() =>
        sender.post('/send', { form_key: formKey, to_kind: 'numbers', numbers: '0412700010\n0412700011', sender: 'Harbour', when: 'now', message: 'Your table is ready' }),
      ),
    );
    expect(again.map((r) => r.location)).toEqual([`/campaigns/${sendId}?notice=send_already_submitted`, `/campaigns/${sendId}?notice=send_already_submitted`]);
    expect(await balance()).toBe(before - 2);
    const count = await t.app.get(DataSource).query(`SELECT count(*)::int AS n FROM messages WHERE account_id = $1 AND body = 'Your table is ready'`, [acct.accountId]);
    expect(count[0].n).toBe(2);
  });

  it('refuses the whole send while any number is invalid, naming it with the API’s text, and keeps what was typed', async () => {
    const before = await balance();
    const { res } = await compose({ numbers: '0412700020\n12345', message: 'Hello there' });
    expect(res.status).toBe(400);
    const text = textOf(res.html);
    expect(text).toContain('Some recipients cannot be sent this message; fix or remove them (see below) and try again.');
    expect(text).toContain('12345 : Invalid phone number format');
    expect(res.html).toContain('Hello there</textarea>');
    expect(await balance()).toBe(before);
    const broke = await accountWithOwner(t.app, { credits: 0, senders: ['Harbour'] });
    const owner = await signedIn(t.app, broke.ownerEmail);
    const poor = await compose({ numbers: '0412700021', message: 'Hi' }, '/send', owner);
    expect([poor.res.status, textOf(poor.res.html).includes('Insufficient credits to send the batch of messages')]).toEqual([403, true]);
  });

  it('schedules at a day and time on the account’s clocks (DST-safe), refuses a skipped hour and a past time, and cancels with the refund shown', async () => {
    const before = await balance();
    // 2027-01-15 09:30 in Sydney is daylight time (AEDT, UTC+11).
    const { res } = await compose({ numbers: '0412700030', message: 'See you tomorrow', when: 'later', send_date: '2027-01-15', send_time: '09:30' });
    expect(res.status).toBe(303);
    expect(res.location).toMatch(/\?notice=send_scheduled$/);
    const sendId = Number(/\/campaigns\/(\d+)/.exec(res.location!)![1]);
    expect(await apiScheduledFor(sendId)).toBe('2027-01-14 22:30:00');
    const page = await sender.get(`/campaigns/${sendId}`);
    expect(textOf(page.html)).toContain('Scheduled for 2027-01-15 09:30:00 AEDT');
    expect(await balance()).toBe(before - 1);

    const skipped = await compose({ numbers: '0412700031', message: 'x', when: 'later', send_date: '2027-10-03', send_time: '02:30' });
    expect([skipped.res.status, textOf(skipped.res.html)]).toEqual([
      400,
      expect.stringContaining('That time does not exist in Australia/Sydney: clocks skip that hour when daylight saving starts. Choose another time.'),
    ]);
    const past = await compose({ numbers: '0412700031', message: 'x', when: 'later', send_date: '2020-01-01', send_time: '09:00' });
    expect([past.res.status, textOf(past.res.html).includes('That time has passed. Choose a later time, or send now.')]).toEqual([400, true]);
    const repeated = await compose({ numbers: '0412700032', message: 'Repeated hour', when: 'later', send_date: '2027-04-04', send_time: '02:30' });
    expect(repeated.res.status).toBe(303);
    // The first 02:30 of the repeated hour is still daylight time: 15:30 UTC the day before.
    expect(await apiScheduledFor(Number(/\/campaigns\/(\d+)/.exec(repeated.res.location!)![1]))).toBe('2027-04-03 15:30:00');

    await sender.get(`/campaigns/${sendId}`);
    const cancelled = await sender.post(`/campaigns/${sendId}/cancel`);
    expect(cancelled.location).toBe(`/campaigns/${sendId}?notice=campaign_cancelled`);
    const after = textOf((await sender.get(cancelled.location!)).html);
    expect(after).toContain('Refunded 1.00 credits');
    expect(after).not.toContain('Cancel the scheduled messages');
    expect(await balance()).toBe(before - 1);
  });

  it('sends to a list with each member’s own fields, staggered', async () => {
    const list = await t.api.post('/v1/lists', { auth: acct.auth, body: { name: 'Regulars' } });
    const listId = list.body.list_id as number;
    for (const [number, first_name] of [
      ['0412700040', 'Ann'],
      ['0412700041', 'Bob'],
    ])
      await t.api.post('/v1/list-contacts', { auth: acct.auth, body: { number, first_name, list_id: listId } });
    const preview = await compose({ to_kind: 'list', list_id: String(listId), message: 'Hi {first_name}, 10% off today' }, '/send/preview');
    expect(textOf(preview.res.html)).toContain('Recipients 2');
    const { res } = await compose({ to_kind: 'list', list_id: String(listId), message: 'Hi {first_name}, 10% off today', stagger_minutes: '30' });
    expect(res.status).toBe(303);
    const sendId = Number(/\/campaigns\/(\d+)/.exec(res.location!)![1]);
    const bodies = await t.app.get(DataSource).query(`SELECT body FROM messages WHERE send_id = $1 ORDER BY body`, [sendId]);
    expect(bodies.map((b: { body: string }) => b.body)).toEqual(['Hi Ann, 10% off today', 'Hi Bob, 10% off today']);
    const page = textOf((await sender.get(`/campaigns/${sendId}`)).html);
    expect(page).toContain('List Regulars');
    expect(page).toContain('Spread over 30 minutes');
    const badStagger = await compose({ to_kind: 'list', list_id: String(listId), message: 'x', stagger_minutes: '5000' });
    expect([badStagger.res.status, textOf(badStagger.res.html).includes('stagger_minutes must be between 1 and 1440')]).toEqual([400, true]);
  });

  it('says when quiet hours hold a list send, and until when: in the preview and in the banner after sending', async () => {
    const held = await accountWithOwner(t.app, { credits: 100, senders: ['Harbour'] });
    const owner = await signedIn(t.app, held.ownerEmail);
    const listId = (await t.api.post('/v1/lists', { auth: held.auth, body: { name: 'Night owls' } })).body.list_id as number;
    await t.api.post('/v1/list-contacts', { auth: held.auth, body: { number: '0412700070', list_id: listId } });
    // Quiet from yesterday to the day after tomorrow (Sydney, the account's zone), so whatever the clock says, the send waits for 09:00 three days on.
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Australia/Sydney' }).format(new Date());
    const day = (n: number) => new Date(Date.parse(`${today}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
    const patched = await t.api.patch('/v1/quiet-hours', {
      auth: held.auth,
      body: { enabled: true, days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'], skip_dates: [day(-1), day(0), day(1), day(2)] },
    });
    expect(patched.status).toBe(200);
    const until = new RegExp(`Held by quiet hours until ${day(3)} 09:00:00 AE[DS]T`);
    const fields = { to_kind: 'list', list_id: String(listId), message: 'Late offer' };

    const preview = await compose(fields, '/send/preview', owner);
    expect(textOf(preview.res.html)).toMatch(until);
    const json = await owner.post('/send/preview.json', { ...fields, sender: 'Harbour', when: 'now' }, { accept: 'application/json' });
    expect(JSON.parse(json.html)).toEqual(expect.objectContaining({ heldUntil: expect.stringMatching(new RegExp(`^${day(3)} 09:00:00 AE[DS]T$`)) }));

    const { res } = await compose(fields, '/send', owner);
    expect(res.status).toBe(303);
    expect(res.location).toMatch(/\?notice=send_held&held_until=\d+$/);
    const bannerHtml = (await owner.get(res.location!)).html;
    // Still waiting, not done: the banner wears the warning style, as the preview's line does.
    expect(bannerHtml).toMatch(/<p class="notice notice-warn" role="status">Held by quiet hours until /);
    const page = textOf(bannerHtml);
    expect(page).toMatch(new RegExp(`${until.source}: messages outside the allowed hours go when sending is next allowed; until then you can cancel them here\\.`));
    expect(page).not.toContain('Sent: the messages are on their way');
    expect(page).toMatch(new RegExp(`Scheduled for ${day(3)} 09:00:00 AE[DS]T`));

    // Scheduled for a quiet day: the campaign says when its messages now go, not the time asked for.
    const later = await compose({ ...fields, when: 'later', send_date: day(1), send_time: '12:00' }, '/send', owner);
    expect(later.res.location).toMatch(/\?notice=send_held&held_until=\d+$/);
    const laterPage = textOf((await owner.get(later.res.location!)).html);
    expect(laterPage).toMatch(new RegExp(`Scheduled for ${day(3)} 09:00:00 AE[DS]T`));
    expect(laterPage).not.toContain(`Scheduled for ${day(1)} 12:00`);

    // Numbers (transactional) are never held: the banner says they went.
    const now = await compose({ numbers: '0412700071', message: 'Your code' }, '/send', owner);
    expect(now.res.location).toMatch(/\?notice=send_queued$/);
    expect((await owner.get(now.res.location!)).html).toContain('<p class="notice notice-success" role="status">Sent: the messages are on their way.');
  });

  it('lists the account’s campaigns newest first with their counts, and answers progress as JSON', async () => {
    const { res } = await compose({ numbers: '0412700050', message: 'Progress please' });
    const sendId = Number(/\/campaigns\/(\d+)/.exec(res.location!)![1]);
    const list = await sender.get('/campaigns');
    expect(list.status).toBe(200);
    expect(list.html.indexOf(`/campaigns/${sendId}"`)).toBeGreaterThan(-1);
    expect(textOf(list.html)).toContain('Progress please');
    const progress = await sender.get(`/campaigns/${sendId}/progress.json`, { accept: 'application/json' });
    const counts = JSON.parse(progress.html) as Record<string, number>;
    expect(counts).toMatchObject({ accepted: 1, delivered: 0, failed: 0, done: false });
    expect(counts.pending + counts.sent).toBe(1);
    const other = await accountWithOwner(t.app);
    const stranger = await signedIn(t.app, other.ownerEmail);
    expect((await stranger.get(`/campaigns/${sendId}`)).status).toBe(404);
    expect((await stranger.get(`/campaigns/${sendId}/progress.json`, { accept: 'application/json' })).status).toBe(404);
  });

  it('lets only send_messages holders send or cancel (checked on the server), shows campaigns to everyone, and refuses a forged form', async () => {
    const viewer = await signedIn(t.app, await userWith(t.app, acct.accountId, []));
    const overview = await viewer.get('/overview');
    expect(overview.html).not.toContain('href="/send"');
    expect(overview.html).toContain('href="/campaigns"');
    expect((await viewer.get('/send')).status).toBe(403);
    const forbidden = await viewer.post('/send', { form_key: '0190aaaa-0000-7000-8000-000000000000', to_kind: 'numbers', numbers: '0412700060', sender: 'Harbour', message: 'x' });
    expect([forbidden.status, textOf(forbidden.html).includes('You do not have permission to do this')]).toEqual([403, true]);
    expect((await viewer.post('/send/preview.json', { numbers: '0412700060' }, { accept: 'application/json' })).status).toBe(403);
    const scheduled = await compose({ numbers: '0412700061', message: 'Later', when: 'later', send_date: '2027-02-01', send_time: '10:00' });
    const sendId = Number(/\/campaigns\/(\d+)/.exec(scheduled.res.location!)![1]);
    const seen = await viewer.get(`/campaigns/${sendId}`);
    expect(seen.status).toBe(200);
    expect(textOf(seen.html)).not.toContain('Cancel the scheduled messages');
    expect((await viewer.post(`/campaigns/${sendId}/cancel`)).status).toBe(403);

    const forged = await sender.post('/send', {
      _csrf: 'forged',
      form_key: '0190aaaa-0000-7000-8000-000000000001',
      to_kind: 'numbers',
      numbers: '0412700062',
      sender: 'Harbour',
      message: 'x',
    });
    expect([forged.status, textOf(forged.html).includes('This form has expired')]).toEqual([403, true]);
    const keyless = await sender.post('/send', { to_kind: 'numbers', numbers: '0412700062', sender: 'Harbour', message: 'x' });
    expect(keyless.status).toBe(403);
    const count = await t.app.get(DataSource).query(`SELECT count(*)::int AS n FROM messages WHERE account_id = $1 AND to_number = '61412700062'`, [acct.accountId]);
    expect(count[0].n).toBe(0);
  });
});
