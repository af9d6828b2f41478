import { DataSource } from 'typeorm';
import { accountWithOwner, signedIn, userWith } from '../support/dashboard';
import { textOf } from '../support/page-client';
import { startTestApp, TestApp } from '../support/test-app';

/** Pages show and read time in the account's zone (with its abbreviation); the API keeps UTC; the zone is a setting of the account. */
describe('Local time on the dashboard', () => {
  let t: TestApp;
  let db: DataSource;

  beforeAll(async () => {
    t = await startTestApp({ inflightLimit: 50 });
    db = t.app.get(DataSource);
  });
  afterAll(async () => {
    await t.close();
  });

  /** A message of the account requested at `at` (UTC). */
  async function messageAt(auth: string, to: string, at: string): Promise<string> {
    const sent = await t.api.post('/v1/messages', { auth, body: { messages: [{ to, message: 'Hello', sender: 'Brand' }] } });
    expect(sent.status).toBe(200);
    const id = sent.body.results[0].message_id as string;
    await db.query(`UPDATE messages SET created_at = $2 WHERE id = $1`, [id, at]);
    return id;
  }

  it('shows every time in the account’s zone with its abbreviation, while the API answers UTC', async () => {
    const acct = await accountWithOwner(t.app, { test: true, senders: ['Brand'] });
    const id = await messageAt(acct.auth, '0412000501', '2026-01-14T20:00:00Z');
    const owner = await signedIn(t.app, acct.ownerEmail);
    expect(textOf((await owner.get(`/messages/${id}`)).html)).toContain('Requested 2026-01-15 07:00:00 AEDT');
    expect(textOf((await owner.get('/messages')).html)).toContain('2026-01-15 07:00:00 AEDT');
    const api = await t.api.get('/v1/messages', { auth: acct.auth, query: { message_id: id } });
    expect(api.body.results[0].requested_at).toBe('2026-01-14 20:00:00');
  });

  it('reads the day filters of the messages page as the account’s calendar days, a 25-hour day when daylight saving ends', async () => {
    const acct = await accountWithOwner(t.app, { test: true, senders: ['Brand'] });
    // 5 April 2026 in Sydney runs from 13:00 UTC on the 4th (AEDT) to 14:00 UTC on the 5th (AEST).
    const before = await messageAt(acct.auth, '0412000511', '2026-04-04T12:59:59Z');
    const first = await messageAt(acct.auth, '0412000512', '2026-04-04T13:00:00Z');
    const last = await messageAt(acct.auth, '0412000513', '2026-04-05T13:59:59Z');
    const after = await messageAt(acct.auth, '0412000514', '2026-04-05T14:00:00Z');
    const owner = await signedIn(t.app, acct.ownerEmail);
    const page = (await owner.get('/messages?from=2026-04-05&to=2026-04-05')).html;
    for (const id of [first, last]) expect(page).toContain(`/messages/${id}`);
    for (const id of [before, after]) expect(page).not.toContain(`/messages/${id}`);
    expect(textOf(page)).toContain('2026-04-05 00:00:00 AEDT');
    expect(textOf(page)).toContain('2026-04-05 23:59:59 AEST');
    expect(page).toContain('From (Sydney time)');
    // The API's day filter is UTC's.
    const utc = await t.api.get('/v1/messages', { auth: acct.auth, query: { from: '2026-04-05', to: '2026-04-05' } });
    expect(utc.body.results.map((r: { message_id: string }) => r.message_id).sort()).toEqual([last, after].sort());
    const bad = await owner.get('/messages?from=2026-02-30');
    expect([bad.status, textOf(bad.html).includes('Invalid from date; expected format YYYY-MM-DD')]).toEqual([400, true]);
  });

  it('lets the owner and manage_settings change the zone (audit-logged), and every page follows it', async () => {
    const acct = await accountWithOwner(t.app, { test: true, senders: ['Brand'] });
    const id = await messageAt(acct.auth, '0412000521', '2026-07-01T03:15:00Z');
    const owner = await signedIn(t.app, acct.ownerEmail);
    const settings = await owner.get('/settings/time-zone');
    expect(settings.status).toBe(200);
    expect(textOf(settings.html)).toContain('Now: Sydney, Canberra (NSW, ACT)');
    const saved = await owner.post('/settings/time-zone', { time_zone: 'Australia/Perth' });
    expect([saved.status, saved.location]).toEqual([303, '/settings/time-zone?notice=time_zone_saved']);
    expect(textOf((await owner.get(saved.location!)).html)).toContain('Time zone saved. Every page and export now shows times in it.');
    expect(textOf((await owner.get(`/messages/${id}`)).html)).toContain('Requested 2026-07-01 11:15:00 AWST');
    expect(textOf((await owner.get('/messages')).html)).toContain('From (Perth time)');
    expect(textOf((await owner.get('/audit')).html)).toMatch(/Changed the account’s time zone Australia\/Sydney → Australia\/Perth/);

    const settingsUser = await signedIn(t.app, await userWith(t.app, acct.accountId, ['manage_settings']));
    expect((await settingsUser.post('/settings/time-zone', { time_zone: 'Australia/Darwin' })).status).toBe(303);
    expect(textOf((await settingsUser.get(`/messages/${id}`)).html)).toContain('Requested 2026-07-01 12:45:00 ACST');
    expect(textOf((await settingsUser.get('/settings/time-zone')).html)).toContain('Now: Darwin (NT, no daylight saving)');
  });

  it('refuses the setting to anyone else, a zone outside Australia, and a forged form', async () => {
    const acct = await accountWithOwner(t.app, { test: true, senders: ['Brand'] });
    const viewer = await signedIn(t.app, await userWith(t.app, acct.accountId, ['send_messages', 'manage_billing', 'manage_api_keys']));
    expect(textOf((await viewer.get('/overview')).html)).not.toContain('Time zone');
    expect((await viewer.get('/settings/time-zone')).status).toBe(403);
    const refused = await viewer.post('/settings/time-zone', { time_zone: 'Australia/Perth' });
    expect([refused.status, textOf(refused.html).includes('You do not have permission to do this')]).toEqual([403, true]);

    const owner = await signedIn(t.app, acct.ownerEmail);
    await owner.get('/settings/time-zone');
    for (const zone of ['Pacific/Auckland', 'UTC', '', 'australia/perth']) {
      const res = await owner.post('/settings/time-zone', { time_zone: zone });
      expect([res.status, textOf(res.html).includes('Choose one of the Australian time zones listed')]).toEqual([400, true]);
    }
    const forged = await owner.post('/settings/time-zone', { time_zone: 'Australia/Perth', _csrf: 'forged' });
    expect([forged.status, textOf(forged.html).includes('This form has expired. Go back, reload the page and try again.')]).toEqual([403, true]);
    expect((await db.query(`SELECT time_zone FROM accounts WHERE id = $1`, [acct.accountId]))[0].time_zone).toBe('Australia/Sydney');
  });
});
