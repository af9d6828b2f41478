import { DataSource } from 'typeorm';
import { CreditsService } from '../../src/billing/credits.service';
import { formatLocal } from '../../src/common/time/format';
import { accountWithOwner, PASSWORD, signedIn, userWith } from '../support/dashboard';
import { textOf } from '../support/page-client';
import { startTestApp, TestApp } from '../support/test-app';

describe('Billing › Statement', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('lists grants and sends newest first in the account time zone, pages by 50, and downloads as CSV', async () => {
    const acct = await accountWithOwner(t.app, { credits: 100, senders: ['Harbour'] });
    await t.app.get(DataSource).query(`UPDATE accounts SET time_zone = 'Australia/Perth' WHERE id = $1`, [acct.accountId]);
    const sent = await t.api.post('/v1/messages', { auth: acct.auth, body: { messages: [{ to: '0412345678', message: 'Fresh bread', sender: 'Harbour' }] } });
    expect(sent.status).toBe(200);
    const sendId = (sent.body as { send_id: number }).send_id;
    const browser = await signedIn(t.app, acct.ownerEmail, PASSWORD, '10.30.5.1');

    const page = await browser.get('/billing/statement');
    expect(page.status).toBe(200);
    const text = textOf(page.html);
    const [debitAt] = await t.app.get(DataSource).query(`SELECT created_at FROM credit_ledger WHERE account_id = $1 AND kind = 'debit'`, [acct.accountId]);
    expect(text).toContain(`${formatLocal(debitAt.created_at, 'Australia/Perth')} debit Send ${sendId}`);
    expect(text).toMatch(/AWST/);
    expect(text.indexOf(' debit Send')).toBeLessThan(text.indexOf(' grant opening balance'));
    expect(text).toContain('-1.00');
    expect(text).toContain('100.00');

    const csv = await browser.get('/billing/statement/csv');
    expect(csv.status).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    const lines = csv.html.trim().split('\r\n');
    expect(lines[0]).toBe('date (Australia/Perth),kind,description,credits,reference');
    expect(lines).toHaveLength(3);
    expect(lines[1]).toMatch(new RegExp(`^[^,]+ AWST,debit,Send ${sendId}.*,-1\\.00,send:${sendId}$`));

    for (let i = 0; i < 55; i++) await t.app.get(CreditsService).grant(acct.accountId, 100, `grant ${i}`, 'test');
    const first = await browser.get('/billing/statement');
    expect((first.html.match(/<tr><td>/g) ?? []).length).toBe(50);
    const older = /href="(\/billing\/statement\?before[^"]+)"/.exec(first.html)![1].replace(/&#x3D;/g, '=');
    const second = await browser.get(older);
    expect((second.html.match(/<tr><td>/g) ?? []).length).toBe(7);
    expect(textOf(second.html)).toContain(`Send ${sendId}`);
  });

  it('never hands a spreadsheet a formula: written text gets a leading apostrophe, amounts stay numbers', async () => {
    const acct = await accountWithOwner(t.app, { credits: 0 });
    await t.app.get(CreditsService).grant(acct.accountId, 250, '=HYPERLINK("http://x.example","refund")', '@ticket 7');
    const browser = await signedIn(t.app, acct.ownerEmail, PASSWORD, '10.30.5.3');
    const lines = (await browser.get('/billing/statement/csv')).html.trim().split('\r\n');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(/^[^,]+,grant,"'=HYPERLINK\(""http:\/\/x\.example"",""refund""\)",2\.50,'@ticket 7$/);
  });

  it('is refused on the server to a user without manage_billing', async () => {
    const acct = await accountWithOwner(t.app);
    const viewer = await signedIn(t.app, await userWith(t.app, acct.accountId, ['manage_api_keys']), PASSWORD, '10.30.5.2');
    expect((await viewer.get('/billing/statement')).status).toBe(403);
    expect((await viewer.get('/billing/statement/csv')).status).toBe(403);
  });
});
