import { DataSource } from 'typeorm';
import { accountWithOwner, DashboardAccount, signedIn, userWith } from '../support/dashboard';
import { textOf } from '../support/page-client';
import { startTestApp, TestApp } from '../support/test-app';
import { until } from '../support/wait';
import { WebhookReceiver } from '../support/webhook-receiver';

/** Settings › Webhooks: a test event and redelivery from the page, through the API's own tools. */
describe('Settings › Webhooks: test event and redelivery', () => {
  let t: TestApp;
  let db: DataSource;
  const receiver = new WebhookReceiver();

  beforeAll(async () => {
    await receiver.start();
    t = await startTestApp({ webhookAllowPrivate: true, webhookMaxRetries: 0, webhookTimeoutMs: 1000, sweepIntervalMs: 200 });
    db = t.app.get(DataSource);
  });
  afterAll(async () => {
    await t?.close();
    await receiver.stop();
  });
  beforeEach(() => receiver.setDefault({ status: 200 }));

  async function withStatusUrl(path: string): Promise<DashboardAccount> {
    const acct = await accountWithOwner(t.app, { test: true });
    await t.api.patch('/v1/webhooks', { auth: acct.auth, body: { status: receiver.url(path) } });
    return acct;
  }
  const eventState = async (id: number) => (await db.query(`SELECT state FROM webhook_events WHERE id = $1`, [id]))[0]?.state as string;
  const attempts = async (id: number) =>
    (await db.query(`SELECT attempt, delivered FROM webhook_attempts WHERE event_id = $1 ORDER BY attempt`, [id])) as Array<{ attempt: number; delivered: boolean }>;

  /** An event whose only attempt failed (no retries in this app). */
  async function failedEvent(acct: DashboardAccount): Promise<number> {
    receiver.setDefault({ status: 500 });
    const { event_id } = (await t.api.post('/v1/webhooks/test-event', { auth: acct.auth, body: {} })).body as { event_id: number };
    await until(async () => (await eventState(event_id)) === 'failed', 'the event to fail');
    receiver.setDefault({ status: 200 });
    return event_id;
  }

  it('sends a signed test event to the chosen URL and says so; the audit log names it', async () => {
    const acct = await withStatusUrl('/page-test');
    const owner = await signedIn(t.app, acct.ownerEmail);
    await owner.get('/settings/webhooks');
    const res = await owner.post('/settings/webhooks/test-event', { event: 'status' });
    expect([res.status, res.location]).toEqual([303, '/settings/webhooks?notice=webhook_test_sent']);
    const eventId = (await db.query(`SELECT max(id)::text AS id FROM webhook_events WHERE account_id = $1`, [acct.accountId]))[0].id as string;
    await until(() => receiver.received.some((w) => w.headers['x-mm-event-id'] === String(eventId)), 'the test event');
    const hook = receiver.received.find((w) => w.headers['x-mm-event-id'] === String(eventId))!;
    expect(hook.body).toMatchObject({ test: true, status: 'delivered' });
    expect(textOf((await owner.get('/settings/webhooks?notice=webhook_test_sent')).html)).toContain('A test webhook is on its way.');
    expect(textOf((await owner.get('/audit')).html)).toContain('Sent a test webhook');
  });

  it('refuses a test event to a URL that is not set, on the page with the API’s text', async () => {
    const acct = await withStatusUrl('/only-status');
    const owner = await signedIn(t.app, acct.ownerEmail);
    await owner.get('/settings/webhooks');
    const res = await owner.post('/settings/webhooks/test-event', { event: 'inbound' });
    expect(res.status).toBe(400);
    expect(textOf(res.html)).toContain('No inbound webhook URL is set');
  });

  it('redelivers one failed event from its row, numbered after its last attempt', async () => {
    const acct = await withStatusUrl('/row');
    const eventId = await failedEvent(acct);
    const owner = await signedIn(t.app, acct.ownerEmail);
    const page = await owner.get('/settings/webhooks');
    expect(textOf(page.html)).toContain(`Redeliver event #${eventId}`);
    const res = await owner.post('/settings/webhooks/redeliver', { event_id: String(eventId) });
    expect([res.status, res.location]).toEqual([303, '/settings/webhooks?notice=webhooks_redelivered']);
    await until(async () => (await attempts(eventId)).length === 2, 'the redelivery');
    expect((await attempts(eventId)).map((a) => [a.attempt, a.delivered])).toEqual([
      [1, false],
      [2, true],
    ]);
    // Delivered now: a second press is refused with the API's text.
    await owner.get('/settings/webhooks');
    const again = await owner.post('/settings/webhooks/redeliver', { event_id: String(eventId) });
    expect(again.status).toBe(409);
    expect(textOf(again.html)).toContain('Only a failed or discarded webhook event can be redelivered');
  });

  it('redelivers every failed event of some days on the account’s calendar, and refuses days that make no period', async () => {
    const acct = await withStatusUrl('/days');
    const [inside, outside] = [await failedEvent(acct), await failedEvent(acct)];
    // 2026-01-10 in Sydney (AEDT, UTC+11) runs from 2026-01-09 13:00 UTC to 2026-01-10 13:00 UTC.
    await db.query(`UPDATE webhook_events SET created_at = '2026-01-09 13:30:00+00' WHERE id = $1`, [inside]);
    await db.query(`UPDATE webhook_events SET created_at = '2026-01-10 13:30:00+00' WHERE id = $1`, [outside]);
    const owner = await signedIn(t.app, acct.ownerEmail);
    await owner.get('/settings/webhooks');
    const res = await owner.post('/settings/webhooks/redeliver', { from: '2026-01-10', to: '2026-01-10' });
    expect([res.status, res.location]).toEqual([303, '/settings/webhooks?notice=webhooks_redelivered']);
    await until(async () => (await eventState(inside)) === 'delivered', 'the redelivery');
    expect(await eventState(outside)).toBe('failed');

    await owner.get('/settings/webhooks');
    const none = await owner.post('/settings/webhooks/redeliver', { from: '2025-01-01', to: '2025-01-02' });
    expect([none.status, none.location]).toEqual([303, '/settings/webhooks?notice=webhooks_none_to_redeliver']);
    for (const [from, to] of [
      ['2026-01-11', '2026-01-10'],
      ['', '2026-01-10'],
      ['2026-13-45', '2026-13-46'],
      ['tomorrow', 'later'],
    ]) {
      await owner.get('/settings/webhooks');
      const bad = await owner.post('/settings/webhooks/redeliver', { from, to });
      expect([from, to, bad.status]).toEqual([from, to, 400]);
      expect(textOf(bad.html)).toContain('Choose the first and last day (YYYY-MM-DD), the first not after the last');
    }
  });

  it('is only for manage_settings, and never reaches another account’s events', async () => {
    const acct = await withStatusUrl('/perm');
    const other = await withStatusUrl('/other');
    const theirs = await failedEvent(other);
    const viewer = await signedIn(t.app, await userWith(t.app, acct.accountId, ['manage_billing']));
    await viewer.get('/overview');
    expect((await viewer.post('/settings/webhooks/test-event', { event: 'status' })).status).toBe(403);
    expect((await viewer.post('/settings/webhooks/redeliver', { event_id: String(theirs) })).status).toBe(403);
    const owner = await signedIn(t.app, acct.ownerEmail);
    await owner.get('/settings/webhooks');
    expect((await owner.post('/settings/webhooks/redeliver', { event_id: String(theirs) })).status).toBe(404);
    expect(await eventState(theirs)).toBe('failed');
  });
  it('lists the deliveries 20 a page, newest first, filtered by event and result across pages; only the account’s own', async () => {
    const acct = await withStatusUrl('/paged');
    const other = await withStatusUrl('/paged-other');
    await failedEvent(other);
    const failed = [await failedEvent(acct), await failedEvent(acct), await failedEvent(acct)];
    const sent: number[] = [];
    for (let i = 0; i < 22; i++) sent.push(((await t.api.post('/v1/webhooks/test-event', { auth: acct.auth, body: {} })).body as { event_id: number }).event_id);
    await until(async () => (await Promise.all(sent.map(eventState))).every((s) => s === 'delivered'), 'the 22 deliveries');
    const owner = await signedIn(t.app, acct.ownerEmail);
    const eventsOn = (html: string) => [...textOf(html).matchAll(/status #(\d+)/g)].map((m) => Number(m[1]));

    // Newest attempt first (attempts of concurrent deliveries finish in their own order).
    const logged = (await db.query(`SELECT event_id, delivered FROM webhook_attempts WHERE account_id = $1 ORDER BY id DESC`, [acct.accountId])) as Array<{
      event_id: string;
      delivered: boolean;
    }>;
    const all = logged.map((r) => Number(r.event_id));
    const delivered = logged.filter((r) => r.delivered).map((r) => Number(r.event_id));
    expect([all.length, delivered.length]).toEqual([25, 22]);

    const first = await owner.get('/settings/webhooks');
    expect(eventsOn(first.html)).toEqual(all.slice(0, 20));
    const older = /href="([^"]+)" rel="next"/
      .exec(first.html)?.[1]
      ?.replace(/&amp;/g, '&')
      .replace(/&#x3D;/g, '=');
    expect(older).toMatch(/^\/settings\/webhooks\?before=\d+$/);
    const second = await owner.get(older!);
    expect(eventsOn(second.html)).toEqual(all.slice(20));
    expect(second.html).toContain('rel="prev"');

    const onlyFailed = await owner.get('/settings/webhooks?result=failed');
    expect(eventsOn(onlyFailed.html).sort()).toEqual([...failed].sort());
    expect(onlyFailed.html).toMatch(/<option value="failed" selected>/);
    expect(onlyFailed.html).not.toContain('rel="next"');
    const firstDelivered = await owner.get('/settings/webhooks?event=status&result=delivered');
    expect(eventsOn(firstDelivered.html)).toEqual(delivered.slice(0, 20));
    const next = /href="([^"]+)" rel="next"/
      .exec(firstDelivered.html)?.[1]
      ?.replace(/&amp;/g, '&')
      .replace(/&#x3D;/g, '=');
    expect(next).toMatch(/[?&]event=status/);
    expect(next).toMatch(/[?&]result=delivered/);
    expect(eventsOn((await owner.get(next!)).html)).toEqual(delivered.slice(20));

    const inbound = await owner.get('/settings/webhooks?event=inbound');
    expect(eventsOn(inbound.html)).toEqual([]);
    expect(textOf(inbound.html)).toContain('No deliveries match.');
    const unknownFilter = await owner.get('/settings/webhooks?result=%3Cscript%3E&event=nope&before=x');
    expect([unknownFilter.status, eventsOn(unknownFilter.html)]).toEqual([200, all.slice(0, 20)]);
  });
});
