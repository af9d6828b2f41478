import { DataSource } from 'typeorm';
import { accountWithOwner, DashboardAccount, signedIn, userWith } from '../support/dashboard';
import { PageClient, textOf } from '../support/page-client';
import { startTestApp, TestApp } from '../support/test-app';

jest.setTimeout(120_000);

/** Far enough ahead that no dispatcher takes the message: only what a test writes decides its status. */
const later = () => new Date(Date.now() + 300 * 86_400_000).toISOString().slice(0, 19);

/** The reports page (charts drawn on the server with their tables) and the CSV exports, for every user of the account. */
describe('Dashboard: reports and exports', () => {
  let t: TestApp;
  let acct: DashboardAccount;
  let viewer: PageClient;
  let sendId: number;

  beforeAll(async () => {
    t = await startTestApp();
    acct = await accountWithOwner(t.app, { credits: 100, senders: ['Harbour'] });
    viewer = await signedIn(t.app, await userWith(t.app, acct.accountId, []));
    // Scheduled far ahead, so no dispatcher touches them: the parts written below alone decide their status.
    const sent = await t.api.post('/v1/messages', {
      auth: acct.auth,
      body: {
        messages: [
          { to: '0412900001', sender: 'Harbour', message: 'Plain text', scheduled_for: later() },
          { to: '0412900002', sender: 'Harbour', message: 'Has, a comma and "quotes"', scheduled_for: later() },
          { to: '0412900003', sender: 'Harbour', message: '=HYPERLINK("x")', custom_ref: '+ref', scheduled_for: later() },
        ],
      },
    });
    sendId = sent.body.send_id;
    const ids = sent.body.results.map((r: { message_id: string }) => r.message_id);
    // Outcomes as the carrier would leave them: one delivered, one failed with the carrier's error code; all on 2026-11-20 (AEDT).
    const ds = t.app.get(DataSource);
    await ds.query(`UPDATE messages SET created_at = '2026-11-19 23:30:00+00' WHERE send_id = $1`, [sendId]);
    await ds.query(
      `INSERT INTO message_parts (message_id, part_number, account_id, total_parts, carrier_id, smsc_id, status, receipt_at, receipt_stat, receipt_err)
       VALUES ($1, 1, $3, 1, 0, 's1', 'delivered', now(), 'DELIVRD', '000'), ($2, 1, $3, 1, 0, 's2', 'failed', now(), 'UNDELIV', '011')`,
      [ids[0], ids[1], acct.accountId],
    );
  });
  afterAll(() => t.close());

  it('draws each chart as an accessible SVG with its data table beside it, on the account’s calendar days', async () => {
    const res = await viewer.get('/reports?from=2026-11-18&to=2026-11-21');
    expect(res.status).toBe(200);
    expect(res.headers['content-security-policy']).toContain("script-src 'self'");
    const charts = [...res.html.matchAll(/<svg class="chart"[^>]*role="img" aria-labelledby="([\w-]+)-title \1-desc"/g)].map((m) => m[1]);
    expect(charts).toEqual(['messages', 'parts', 'delivery', 'cost', 'clicks', 'failures']);
    expect(res.html).not.toMatch(/<svg[^>]*style=|<script(?! src="\/assets\/app\.js")/);
    const text = textOf(res.html);
    // 23:30 UTC on the 19th is the 20th in Sydney.
    expect(text).toContain('Day Messages 2026-11-18 0 2026-11-19 0 2026-11-20 3 2026-11-21 0');
    expect(text).toContain('Delivery rate per day');
    expect(text).toContain('2026-11-20 50%');
    expect(text).toContain('Cost per day (credits)');
    expect(text).toContain('2026-11-20 3.00');
    expect(text).toContain('Failures by reason');
    expect(text).toContain('Carrier error 011 (UNDELIV) 1');
    expect(res.html).toContain('<title>11-20: 3</title>');
  });

  it('counts link clicks on the day they were clicked, on the account’s calendar, not the day their message was sent', async () => {
    const sent = await t.api.post('/v1/messages', {
      auth: acct.auth,
      body: { shorten_urls: true, messages: [{ to: '0412900010', sender: 'Harbour', message: 'Menu https://cafe.example/menu', scheduled_for: later() }] },
    });
    const ds = t.app.get(DataSource);
    // Sent on 2026-11-10 (Sydney); clicked on the 12th and, across midnight there, the 13th.
    await ds.query(`UPDATE messages SET created_at = '2026-11-10 01:00:00+00' WHERE send_id = $1`, [sent.body.send_id]);
    const [{ code }] = await ds.query(`SELECT code FROM short_links WHERE send_id = $1 AND kind = 'url'`, [sent.body.send_id]);
    // Hits as the redirect appends them: 23:50 on the 12th and 00:50 on the 13th in Sydney (AEDT, UTC+11); a link preview is not a click.
    await ds.query(
      `INSERT INTO link_click_events (code, preview, clicked_at)
       VALUES ($1, false, '2026-11-12 12:50:00+00'), ($1, false, '2026-11-12 13:50:00+00'), ($1, false, '2026-11-12 13:55:00+00'), ($1, true, '2026-11-12 13:56:00+00')`,
      [code],
    );
    const text = textOf((await viewer.get('/reports?from=2026-11-10&to=2026-11-13')).html);
    expect(text).toContain('Link clicks per day 3 link clicks from 2026-11-10 to 2026-11-13, counted on the day they were clicked.');
    expect(text).toContain('Day Clicks 2026-11-10 0 2026-11-11 0 2026-11-12 1 2026-11-13 2');
    // Folded once: read again, the same counts.
    expect(textOf((await viewer.get('/reports?from=2026-11-13&to=2026-11-13')).html)).toContain('Day Clicks 2026-11-13 2');
    // The same hits on Perth's calendar (UTC+8): all three on the 12th.
    await ds.query(`UPDATE accounts SET time_zone = 'Australia/Perth' WHERE id = $1`, [acct.accountId]);
    try {
      expect(textOf((await viewer.get('/reports?from=2026-11-12&to=2026-11-13')).html)).toContain('Day Clicks 2026-11-12 3 2026-11-13 0');
    } finally {
      await ds.query(`UPDATE accounts SET time_zone = 'Australia/Sydney' WHERE id = $1`, [acct.accountId]);
    }
  });

  it('refuses a period it cannot chart with a readable text', async () => {
    const backwards = await viewer.get('/reports?from=2026-11-21&to=2026-11-18');
    expect([backwards.status, textOf(backwards.html).includes('The first day must not be after the last day')]).toEqual([400, true]);
    const long = await viewer.get('/reports?from=2025-01-01&to=2026-11-18');
    expect([long.status, textOf(long.html).includes('A report covers at most 366 days; choose a shorter period')]).toEqual([400, true]);
    const bad = await viewer.get('/reports?from=2026-13-01');
    expect([bad.status, textOf(bad.html).includes('Invalid from date; expected format YYYY-MM-DD')]).toEqual([400, true]);
    // Without a first day, the last day is read before the default period is counted back from it.
    const badTo = await viewer.get('/reports?to=2026-13-01');
    expect([badTo.status, textOf(badTo.html).includes('Invalid to date; expected format YYYY-MM-DD')]).toEqual([400, true]);
    const badExport = await viewer.get('/reports/export.csv?to=soon');
    expect([badExport.status, textOf(badExport.html).includes('Invalid to date; expected format YYYY-MM-DD')]).toEqual([400, true]);
  });

  it('exports the period’s messages as CSV in local time, quoting what needs it and never starting a formula', async () => {
    const res = await viewer.get('/reports/export.csv?from=2026-11-20&to=2026-11-20');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="messages-2026-11-20-to-2026-11-20.csv"');
    const lines = res.html.trimEnd().split('\r\n');
    expect(lines[0]).toBe('message_id,send_id,requested_at,scheduled_for,to,sender,message,status,failure_reason,encoding,parts,cost,custom_ref');
    expect(lines).toHaveLength(4);
    const byTo = (to: string) =>
      lines
        .find((l) => l.includes(`,${to},`))!
        .split(',')
        .slice(2);
    const scheduledFor = byTo('61412900001')[1];
    expect(scheduledFor).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} AE[DS]T$/);
    expect(byTo('61412900001').join(',')).toBe(`2026-11-20 10:30:00 AEDT,${scheduledFor},61412900001,Harbour,Plain text,delivered,,gsm7,1,1.00,`);
    expect(lines.find((l) => l.includes('61412900002'))).toContain(',"Has, a comma and ""quotes""",failed,Carrier error 011 (UNDELIV),gsm7,1,1.00,');
    expect(lines.find((l) => l.includes('61412900003'))).toMatch(/,"'=HYPERLINK\(""x""\)",scheduled,,gsm7,1,1\.00,'\+ref$/);
    const none = await viewer.get('/reports/export.csv?from=2026-11-21&to=2026-11-21');
    expect(none.html.trimEnd().split('\r\n')).toHaveLength(1);
  });

  it('exports one campaign’s messages, and nobody else’s', async () => {
    const res = await viewer.get(`/campaigns/${sendId}/export.csv`);
    expect(res.status).toBe(200);
    expect(res.headers['content-disposition']).toBe(`attachment; filename="campaign-${sendId}.csv"`);
    expect(res.html.trimEnd().split('\r\n')).toHaveLength(4);
    const campaign = textOf((await viewer.get(`/campaigns/${sendId}`)).html);
    expect(campaign).toContain('Failures by reason Reason Messages Carrier error 011 (UNDELIV) 1');
    expect(campaign).toContain('Delivery rate: 50%');
    const other = await accountWithOwner(t.app);
    const stranger = await signedIn(t.app, other.ownerEmail);
    expect((await stranger.get(`/campaigns/${sendId}/export.csv`)).status).toBe(404);
    const strangersExport = await stranger.get('/reports/export.csv?from=2026-11-20&to=2026-11-20');
    expect(strangersExport.html.trimEnd().split('\r\n')).toHaveLength(1);
  });
});
