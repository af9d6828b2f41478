import { DataSource } from 'typeorm';
import { LinkClicksService } from '../../src/links/link-clicks.service';
import { accountWithOwner, DashboardAccount, signedIn, userWith } from '../support/dashboard';
import { PageClient, textOf } from '../support/page-client';
import { startTestApp, TestApp } from '../support/test-app';

jest.setTimeout(120_000);

const BASE = 'https://sms.test';
const BROWSER = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';
const codeOf = (text: string) => /https:\/\/sms\.test\/([0-9A-Za-z]{7})/.exec(text)![1];
const optoutPathOf = (text: string) => /https:\/\/sms\.test(\/o\/[0-9A-Za-z]+)/.exec(text)![1];

/** A campaign's counts beyond its statuses: recipients blocked at acceptance, and the clicks, replies and opt-outs that followed its messages. */
describe('Dashboard: campaign progress, blocked and what followed', () => {
  let t: TestApp;
  let acct: DashboardAccount;
  let viewer: PageClient;

  beforeAll(async () => {
    // No dispatcher: the messages stay pending, so only what this test does moves the counts.
    t = await startTestApp({ appRole: 'api', shortLinkBase: BASE });
    acct = await accountWithOwner(t.app, { test: true, credits: 100, senders: ['Brand', '61400000001'] });
    viewer = await signedIn(t.app, await userWith(t.app, acct.accountId, []));
  });
  afterAll(() => t.close());

  const progress = async (sendId: number) => JSON.parse((await viewer.get(`/campaigns/${sendId}/progress.json`, { accept: 'application/json' })).html) as Record<string, unknown>;
  const send = async (body: Record<string, unknown>) => {
    const res = await t.api.post('/v1/messages', { auth: acct.auth, body });
    expect(res.status).toBe(200);
    return res.body as { send_id: number; results: Array<{ to: string; status: string; message?: string; message_id?: string }> };
  };
  const reply = (from: string, message: string) => t.api.post('/v1/test-inbound', { auth: acct.auth, body: { from, message, to: '61400000001' } });

  it('counts the blocked recipients, the link clicks, the replies and the opt-outs of each send, on the list and the campaign page', async () => {
    await t.api.post('/v1/unsubscribes', { auth: acct.auth, body: { number: '0412600009' } });
    // A promotion from the brand: one recipient blocked (unsubscribed), a shortened link and an opt-out link in each message.
    const promo = await send({
      shorten_urls: true,
      messages: ['0412600001', '0412600002', '0412600003', '0412600009'].map((to) => ({ to, sender: 'Brand', message: 'Sale https://shop.example/sale{optout}' })),
    });
    expect(promo.results.map((r) => r.status)).toEqual(['success', 'success', 'success', 'blocked']);
    // A reminder from the number, which can be answered.
    const reminder = await send({ messages: ['0412600004', '0412600005', '0412600006'].map((to) => ({ to, sender: '61400000001', message: 'See you at 6?' })) });

    for (const r of [promo.results[0], promo.results[0], promo.results[1]]) {
      expect((await t.app.inject({ method: 'GET', url: `/${codeOf(r.message!)}`, headers: { 'user-agent': BROWSER } })).statusCode).toBe(302);
    }
    await t.app.get(LinkClicksService).foldAll();
    const visitor = new PageClient(t.app, { remoteAddress: '198.51.100.77' });
    expect((await visitor.get(optoutPathOf(promo.results[2].message!))).status).toBe(200);
    expect((await visitor.post(optoutPathOf(promo.results[2].message!))).status).toBe(200);
    // Two replies from one recipient, a STOP (an opt-out, not a reply) from another.
    expect((await reply('0412600004', 'Yes')).status).toBe(200);
    expect((await reply('0412600004', 'Running late')).status).toBe(200);
    expect((await reply('0412600005', 'STOP')).status).toBe(200);
    // A reply from someone the account never texted follows no send.
    expect((await reply('0412600077', 'Who is this?')).status).toBe(200);

    expect(await progress(promo.send_id)).toMatchObject({ accepted: 3, blocked: 1, clicks: 3, replies: 0, optOuts: 1, cancelled: 1 });
    expect(await progress(reminder.send_id)).toMatchObject({ accepted: 3, blocked: 0, clicks: 0, replies: 2, optOuts: 1, cancelled: 1 });

    const promoPage = textOf((await viewer.get(`/campaigns/${promo.send_id}`)).html);
    expect(promoPage).toContain('Scheduled Queued Sent Delivered Failed Cancelled Blocked 0 2 0 0 0 1 1');
    expect(promoPage).toContain('Link clicks Replies Opt-outs 3 0 1');
    const reminderPage = textOf((await viewer.get(`/campaigns/${reminder.send_id}`)).html);
    expect(reminderPage).toContain('Link clicks Replies Opt-outs 0 2 1');

    const list = textOf((await viewer.get('/campaigns')).html);
    expect(list).toContain('1 blocked');
    expect(list).toContain('Clicks 3 · replies 0 · opt-outs 1');
    expect(list).toContain('Clicks 0 · replies 2 · opt-outs 1');
  });

  it('keeps a list send’s blocked members on its campaign, sent from the compose page', async () => {
    const listId = (await t.api.post('/v1/lists', { auth: acct.auth, body: { name: 'Members' } })).body.list_id as number;
    // Unsubscribed first (an unsubscribe takes a number off every list), then added to the list again.
    await t.api.post('/v1/unsubscribes', { auth: acct.auth, body: { number: '0412600103' } });
    for (const number of ['0412600101', '0412600102', '0412600103']) await t.api.post('/v1/list-contacts', { auth: acct.auth, body: { list_id: listId, number } });
    const owner = await signedIn(t.app, acct.ownerEmail);
    const form = await owner.get('/send');
    const formKey = /name="form_key" value="([^"]+)"/.exec(form.html)![1];
    const sent = await owner.post('/send', { form_key: formKey, to_kind: 'list', list_id: String(listId), sender: 'Brand', message: 'Members night', when: 'now' });
    expect(sent.status).toBe(303);
    const sendId = Number(/\/campaigns\/(\d+)/.exec(sent.location!)![1]);
    expect((await t.app.get(DataSource).query(`SELECT blocked_count, message_count FROM sends WHERE id = $1`, [sendId]))[0]).toEqual({ blocked_count: 1, message_count: 2 });
    expect(await progress(sendId)).toMatchObject({ accepted: 2, blocked: 1 });
    expect(textOf((await viewer.get(`/campaigns/${sendId}`)).html)).toContain('Scheduled Queued Sent Delivered Failed Cancelled Blocked 0 2 0 0 0 0 1');
  });

  it('charts the share delivered over time with its table, in the account’s time zone', async () => {
    const later = new Date(Date.now() + 300 * 86_400_000).toISOString().slice(0, 19);
    const sent = await send({ messages: ['0412600301', '0412600302', '0412600303'].map((to) => ({ to, sender: 'Brand', message: 'Timeline', scheduled_for: later })) });
    const ids = sent.results.map((r) => r.message_id);
    // Receipts as the carrier would leave them: one delivered at 11:00 Sydney time, one failed with its error at 11:02; one still out.
    await t.app.get(DataSource).query(
      `INSERT INTO message_parts (message_id, part_number, account_id, total_parts, carrier_id, smsc_id, status, submitted_at, receipt_at, receipt_stat, receipt_err)
       VALUES ($1, 1, $3, 1, 0, 't1', 'delivered', '2026-11-20 00:00:05+00', '2026-11-20 00:00:30+00', 'DELIVRD', '000'),
              ($2, 1, $3, 1, 0, 't2', 'failed', '2026-11-20 00:00:05+00', '2026-11-20 00:02:10+00', 'UNDELIV', '011')`,
      [ids[0], ids[1], acct.accountId],
    );
    const page = await viewer.get(`/campaigns/${sent.send_id}`);
    expect(page.html).toMatch(/<svg class="chart"[^>]*role="img" aria-labelledby="delivery-over-time-title delivery-over-time-desc"/);
    const text = textOf(page.html);
    expect(text).toContain('Delivered over time One bar per minute (Sydney time): the share of the messages delivered by its end.');
    expect(text).toContain('1 of 3 messages delivered (33.3%)');
    expect(text).toContain(
      'From Delivered Failed Delivered by then Delivery rate by then 2026-11-20 11:00:00 AEDT 1 0 33.3% 100% 2026-11-20 11:01:00 AEDT 0 0 33.3% 100% 2026-11-20 11:02:00 AEDT 0 1 33.3% 50%',
    );
    expect(text).toContain('Failures by reason Reason Messages Carrier error 011 (UNDELIV) 1');
    // A campaign with no outcome yet has no chart.
    const quiet = await send({ messages: [{ to: '0412600304', sender: 'Brand', message: 'Quiet', scheduled_for: later }] });
    expect((await viewer.get(`/campaigns/${quiet.send_id}`)).html).not.toContain('Delivered over time');
  });

  it('counts with one statement per page, however many campaigns it shows', async () => {
    for (let i = 0; i < 3; i++) await send({ messages: [{ to: `041260020${i}`, sender: 'Brand', message: `Batch ${i}` }] });
    const ds = t.app.get(DataSource);
    const statements: string[] = [];
    const createRunner = ds.createQueryRunner.bind(ds);
    const spy = jest.spyOn(ds, 'createQueryRunner').mockImplementation((mode) => {
      const runner = createRunner(mode);
      const query = runner.query.bind(runner);
      runner.query = ((text: string, ...rest: unknown[]) => {
        statements.push(text);
        return (query as (...args: unknown[]) => Promise<unknown>)(text, ...rest);
      }) as typeof runner.query;
      return runner;
    });
    try {
      expect((await viewer.get('/campaigns')).status).toBe(200);
    } finally {
      spy.mockRestore();
    }
    expect(statements.filter((q) => /FROM sends s/.test(q))).toHaveLength(1);
    expect(statements.filter((q) => /inbound_messages|consent_records|short_links/.test(q))).toHaveLength(1);
  });
});
