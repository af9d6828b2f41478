import { DataSource } from 'typeorm';
import { accountWithOwner, DashboardAccount, signedIn, userWith } from '../support/dashboard';
import { PageClient, textOf } from '../support/page-client';
import { startTestApp, TestApp } from '../support/test-app';

// Signing people in hashes passwords (scrypt) on a shared 2-core machine.
jest.setTimeout(120_000);

const FULL = { enabled: 'on', allowed_from: '08:30', allowed_until: '21:00', days: ['mon', 'sat', 'sun'], skip_dates: '2026-12-26\n2026-12-25', zone_field: 'field_1' };

/** Settings › Quiet hours without JavaScript: the API's setting, its checks and texts, CSRF, the audit log, and who may. */
describe('Dashboard: quiet hours', () => {
  let t: TestApp;
  let acct: DashboardAccount;
  let settings: PageClient;

  beforeAll(async () => {
    t = await startTestApp({ appRole: 'api' });
    acct = await accountWithOwner(t.app, { credits: 10, senders: ['Brand'] });
    settings = await signedIn(t.app, await userWith(t.app, acct.accountId, ['manage_settings']));
  });
  afterAll(() => t.close());

  const api = async () => (await t.api.get('/v1/quiet-hours', { auth: acct.auth })).body;

  it('shows the setting off, turns it on with hours, days, dates and the zone field (as the API then reads it), audit-logged, and off again', async () => {
    const page = await settings.get('/settings/quiet-hours');
    expect(page.status).toBe(200);
    expect(textOf(page.html)).toContain('Off: messages go whenever they are sent or scheduled.');
    expect(page.html).toContain('value="09:00"');
    expect(page.html).not.toMatch(/name="enabled" value="on" checked/);

    const saved = await settings.post('/settings/quiet-hours', FULL);
    expect([saved.status, saved.location]).toEqual([303, '/settings/quiet-hours?notice=quiet_hours_saved']);
    expect(await api()).toEqual({
      status: 'complete',
      enabled: true,
      allowed_from: '08:30',
      allowed_until: '21:00',
      days: ['mon', 'sat', 'sun'],
      skip_dates: ['2026-12-25', '2026-12-26'],
      zone_field: 'field_1',
    });
    const after = await settings.get(saved.location!);
    const text = textOf(after.html);
    expect(text).toContain('Quiet hours saved.');
    expect(text).toContain('On: 08:30 to 21:00 on Monday, Saturday, Sunday, except 2 date(s), in the zone in each contact’s Field 1, else Sydney, Canberra (NSW, ACT).');
    expect(after.html).toMatch(/name="enabled" value="on" checked/);
    expect(after.html).toMatch(/value="sat" checked/);
    expect(after.html).not.toMatch(/value="tue" checked/);
    expect(after.html).toContain('2026-12-25\n2026-12-26</textarea>');
    expect(after.html).toMatch(/<option value="field_1" selected>/);

    const [entry] = (await t.app
      .get(DataSource)
      .query(`SELECT action, detail FROM audit_log WHERE account_id = $1 AND action = 'account.quiet_hours_changed' ORDER BY id DESC LIMIT 1`, [acct.accountId])) as Array<{
      action: string;
      detail: string;
    }>;
    expect(entry.detail).toMatch(/^On: 08:30 to 21:00 on Monday, Saturday, Sunday, except 2 date\(s\)/);

    // The checkbox left unticked turns them off; everything else is kept as typed.
    const { enabled: _on, ...rest } = FULL;
    expect((await settings.post('/settings/quiet-hours', rest)).status).toBe(303);
    expect(await api()).toMatchObject({ enabled: false, allowed_from: '08:30', zone_field: 'field_1' });
    expect(textOf((await settings.get('/settings/quiet-hours')).html)).toContain('Off: messages go whenever they are sent or scheduled.');
    // An empty field choice means the account's zone for everyone.
    expect((await settings.post('/settings/quiet-hours', { ...FULL, zone_field: '' })).status).toBe(303);
    expect((await api()).zone_field).toBeNull();
  });

  it.each([
    [{ allowed_from: '9am' }, 'Enter the time sending may start as HH:MM on a 24-hour clock, from 00:00 to 24:00, such as 09:00'],
    [{ allowed_until: '24:01' }, 'Enter the time sending must stop as HH:MM on a 24-hour clock, from 00:00 to 24:00, such as 20:00'],
    [{ allowed_from: '22:00' }, 'Sending must start before it stops: make the start time earlier than the stop time'],
    [{ allowed_from: '' }, 'Enter the time sending may start, such as 09:00'],
    [{ days: [] }, 'Tick at least one day on which sending is allowed'],
    [{ days: ['funday'] }, 'Tick at least one day on which sending is allowed'],
    [{ skip_dates: '2026-02-30' }, 'Write each date with no sending as YYYY-MM-DD on a line of its own, at most 100 dates'],
    [
      { skip_dates: Array.from({ length: 101 }, (_, i) => `2027-01-${String((i % 28) + 1).padStart(2, '0')}`).join('\n') },
      'Write each date with no sending as YYYY-MM-DD on a line of its own, at most 100 dates',
    ],
    [{ zone_field: 'state' }, 'Choose where the recipient’s time zone comes from'],
  ])('refuses %j in the page’s own words, keeps what was typed and changes nothing', async (fields, error) => {
    const before = await api();
    await settings.get('/settings/quiet-hours');
    const res = await settings.post('/settings/quiet-hours', { ...FULL, skip_dates: '2027-03-01', ...fields });
    expect(res.status).toBe(400);
    expect(textOf(res.html)).toContain(error);
    if (typeof (fields as Record<string, unknown>).allowed_from === 'string')
      expect(res.html).toContain(
        `id="allowed_from" name="allowed_from" type="text" inputmode="numeric" maxlength="5" placeholder="09:00" value="${(fields as { allowed_from: string }).allowed_from}"`,
      );
    expect(await api()).toEqual(before);
  });

  it('refuses a form without its CSRF token, and is for manage_settings only', async () => {
    const before = await api();
    await settings.get('/settings/quiet-hours');
    expect((await settings.post('/settings/quiet-hours', { ...FULL, allowed_from: '07:00', _csrf: 'forged' })).status).toBe(403);
    const sender = await signedIn(t.app, await userWith(t.app, acct.accountId, ['send_messages']));
    expect((await sender.get('/settings/quiet-hours')).status).toBe(403);
    await sender.get('/overview');
    expect((await sender.post('/settings/quiet-hours', { ...FULL, allowed_from: '07:00' })).status).toBe(403);
    expect(await api()).toEqual(before);
  });
});
