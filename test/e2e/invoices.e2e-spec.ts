import { localDayOf } from '../../src/common/time/local-time';
import { DataSource } from 'typeorm';
import { AccountsService } from '../../src/accounts/accounts.service';
import { accountWithOwner } from '../support/dashboard';
import { pdfText, renderFirstPage } from '../support/pdf';
import { addCard, buyCredits, enablePurchases } from '../support/purchases';
import { SmtpPeer } from '../support/smtp-peer';
import { startTestApp, TestApp } from '../support/test-app';

/** Tax invoices: the emailed PDF, read back with poppler, shows what an Australian tax invoice must; page 1 is kept as a PNG. */
describe('Tax invoices', () => {
  let t: TestApp;
  let db: DataSource;
  const smtp = new SmtpPeer();

  beforeAll(async () => {
    await smtp.start();
    t = await startTestApp({ smtpUrl: smtp.url, purchaseJobsIntervalMs: 0, sellerName: 'Example Messaging Pty Ltd', sellerAbn: '51824753556' });
    db = t.app.get(DataSource);
  });
  afterAll(async () => {
    await t.close();
    await smtp.stop();
  });

  it('emails a PDF tax invoice with the seller and ABN, date, number, buyer, item, quantity, price, GST, total and the API key', async () => {
    const acct = await accountWithOwner(t.app, { name: `Invoice Buyer ${process.pid}` });
    await enablePurchases(t.app, acct);
    await addCard(t.app, acct.accountId);
    await db.query(`UPDATE api_keys SET label = 'Shop backend' WHERE username = $1`, [acct.username]);
    const res = await buyCredits(t, acct, { credits: 1001 });
    expect(res.status).toBe(200);
    const mail = await smtp.mailTo(acct.ownerEmail, /^Tax invoice/);
    expect(mail.attachments).toHaveLength(1);
    const text = pdfText(res.body.invoice_number, mail.attachments[0].content);
    // The account's day (Australia/Sydney by default), not UTC's.
    const today = localDayOf(new Date(), 'Australia/Sydney');
    for (const expected of [
      /^\s*Tax invoice/,
      /Example Messaging Pty Ltd/,
      /ABN 51 824 753 556/,
      new RegExp(`Invoice number: ${res.body.invoice_number}`),
      new RegExp(`Date: ${today}`),
      new RegExp(`Invoice Buyer ${process.pid}`),
      new RegExp(`API key: Shop backend \\(${acct.username}\\)`),
      /SMS credits\s+1001\s+\$0\.035\s+\$35\.04/,
      /Total ex GST\s+\$35\.04/,
      /GST \(10%\)\s+\$3\.50/,
      /Total inc GST\s+\$38\.54/,
      /card ending in 4242/,
    ]) {
      expect(text).toMatch(expected);
    }
    expect(res.body).toMatchObject({ amount_ex_gst: 35.04, gst: 3.5, amount_inc_gst: 38.54 });
    expect(mail.text).toContain('Bought with the API key "Shop backend"');

    const png = renderFirstPage(res.body.invoice_number);
    expect(png.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
    expect(png.length).toBeGreaterThan(10_000);
  });

  it('gives every charge its own invoice number, and says when the payment is held for review', async () => {
    const acct = await accountWithOwner(t.app);
    await enablePurchases(t.app, acct);
    await addCard(t.app, acct.accountId, '4000000000009235');
    const held = await buyCredits(t, acct, { credits: 500 });
    expect(held.body.state).toBe('held');
    const mail = await smtp.mailTo(acct.ownerEmail, /held for review/);
    const text = pdfText(`${held.body.invoice_number}-held`, mail.attachments[0].content);
    expect(text).toMatch(/held for review/);
    expect(text).toMatch(/Total inc GST\s+\$22\.00/);
    const numbers = await db.query(`SELECT invoice_number FROM purchases WHERE invoice_number IS NOT NULL`);
    expect(new Set(numbers.map((r: { invoice_number: string }) => r.invoice_number)).size).toBe(numbers.length);
    expect((await t.app.get(AccountsService).get(acct.accountId)).creditBalance).toBe(0);
  });
});
