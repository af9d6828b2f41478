import { readFileSync } from 'node:fs';
import { DataSource } from 'typeorm';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { inspectPage, launchChromium, watchForProblems } from '../support/browser';
import { accountWithOwner, PASSWORD } from '../support/dashboard';
import { startTestApp, TestApp } from '../support/test-app';

// Journeys with axe on every page take tens of seconds on a shared 2-core machine.
jest.setTimeout(180_000);

/** The Send and Campaigns pages in headless Chromium with JavaScript on, under the strict CSP: live preview, send, live progress, schedule and cancel, a list send. */
describe('Send and campaigns in a browser', () => {
  let t: TestApp;
  let base: string;
  let browser: Browser;
  const accessibility: string[] = [];

  beforeAll(async () => {
    t = await startTestApp({ testReceiptDelayMs: 100, sweepIntervalMs: 200 });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    expect(accessibility).toEqual([]);
  });

  /** A page signed in as the account's owner, with its console and script errors collected. */
  async function ownerPage(email: string): Promise<{ page: Page; problems: string[] }> {
    const context = await browser.newContext({ baseURL: base });
    const page = await context.newPage();
    const problems = watchForProblems(page);
    await page.goto('/sign-in');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL('**/overview');
    return { page, problems };
  }
  const check = async (page: Page, name: string) => accessibility.push(...(await inspectPage(page, name)));
  const sendIdOf = (page: Page) => Number(/\/campaigns\/(\d+)/.exec(page.url())![1]);

  it('previews as the text is typed, sends, and the campaign page shows it delivered without a reload', async () => {
    const acct = await accountWithOwner(t.app, { test: true, credits: 25, senders: ['Harbour'] });
    const { page, problems } = await ownerPage(acct.ownerEmail);
    await page.getByRole('link', { name: 'Send', exact: true }).click();
    await page.waitForURL('**/send');
    await check(page, 'send');
    await page.getByRole('textbox', { name: 'Mobile numbers' }).fill('0412 800 001\n0412800002');
    await page.getByLabel('Message').fill('€'.repeat(81));
    // The script asked the JSON preview route: GSM-7 counts € twice, so 162 characters are two parts.
    await page.locator('#preview [data-field="cost"]').filter({ hasText: '4.00 credits' }).waitFor();
    expect(await page.locator('#preview [data-field="length"]').textContent()).toBe('162 characters, 2 parts a message');
    await page.getByLabel('Message').fill('Your table is ready 🍽');
    await page.locator('#preview [data-field="encoding"]').filter({ hasText: 'Unicode (UCS-2)' }).waitFor();
    expect(await page.locator('#preview [data-field="cost"]').textContent()).toBe('2.00 credits');
    await check(page, 'send-preview');

    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await page.waitForURL(/\/campaigns\/\d+\?notice=send_queued$/);
    await page.getByText('Sent: the messages are on their way.').waitFor();
    // Test accounts' receipts are simulated after testReceiptDelayMs: the counts move while the page stays open.
    const url = page.url();
    await page.locator('[data-testid="count-delivered"]').filter({ hasText: /^2$/ }).waitFor({ timeout: 60_000 });
    expect(page.url()).toBe(url);
    expect(await page.getByTestId('delivery-rate').textContent()).toBe('100%');
    await check(page, 'campaign-delivered');
    await page.getByRole('link', { name: 'Campaigns', exact: true }).click();
    await page.getByText('Your table is ready 🍽').waitFor();
    await check(page, 'campaigns');
    expect(problems).toEqual([]);
  });

  it('verifies the owner’s mobile from the Send page’s hint, sends a test there once under a double click, and the campaign page charts its delivery', async () => {
    const acct = await accountWithOwner(t.app, { test: true, credits: 25, senders: ['Harbour'] });
    const { page, problems } = await ownerPage(acct.ownerEmail);
    await page.goto('/send');
    await page.getByText('You have no verified mobile yet.').waitFor();
    await page.getByRole('link', { name: 'Sender IDs › Send from your own mobile' }).click();
    await page.getByLabel('Mobile number').fill('0412 800 040');
    await page.getByRole('button', { name: 'Text me a link' }).click();
    // A test account's confirmation link comes back to the page instead of a phone.
    await page.getByText('is now a sender of').waitFor();

    await page.goto('/send');
    await page.getByRole('textbox', { name: 'Mobile numbers' }).fill('0412800041');
    await page.getByLabel('Message').fill('Friday special: two for one');
    await page.getByText('goes now to your mobile 0412 800 040 only').waitFor();
    await check(page, 'send-test-offered');
    await page.getByRole('button', { name: 'Send a test' }).dblclick();
    await page.getByTestId('test-sent').waitFor();
    expect(await page.getByTestId('test-sent').textContent()).toMatch(
      /^(Test sent to 0412 800 040\.|That test was already sent to 0412 800 040, so nothing was sent again\.) Follow it on its campaign page\.$/,
    );
    // What was typed for the real send is still there.
    expect(await page.getByRole('textbox', { name: 'Mobile numbers' }).inputValue()).toBe('0412800041');
    await check(page, 'send-test-sent');
    const tests = await t.app
      .get(DataSource)
      .query(`SELECT body FROM messages WHERE account_id = $1 AND to_number = '61412800040' AND body = 'Friday special: two for one'`, [acct.accountId]);
    expect(tests).toHaveLength(1);

    await page.getByRole('link', { name: 'Follow it on its campaign page' }).click();
    await page.locator('[data-testid="count-delivered"]').filter({ hasText: /^1$/ }).waitFor({ timeout: 60_000 });
    await page.reload();
    expect(await page.getByRole('img', { name: /Delivered over time/ }).count()).toBe(1);
    expect(await page.getByRole('region', { name: 'Delivered over time: the figures' }).textContent()).toContain('100%');
    await check(page, 'campaign-timeline');
    expect(problems).toEqual([]);
  });

  it('schedules in the account’s time zone, then cancels and shows the refund', async () => {
    const acct = await accountWithOwner(t.app, { credits: 25, senders: ['Harbour'] });
    const { page, problems } = await ownerPage(acct.ownerEmail);
    await page.goto('/send');
    await page.getByRole('textbox', { name: 'Mobile numbers' }).fill('0412800010');
    await page.getByLabel('Message').fill('Your booking is tomorrow at 9');
    await page.getByRole('radio', { name: 'Later, at' }).check();
    await page.getByLabel('Day (Sydney time)').fill('2027-01-15');
    await page.getByLabel('Time (Sydney time)').fill('09:30');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await page.waitForURL(/\?notice=send_scheduled$/);
    expect(await page.getByTestId('scheduled-for').textContent()).toBe('2027-01-15 09:30:00 AEDT');
    expect(await page.getByTestId('count-scheduled').textContent()).toBe('1');
    expect((await t.api.get('/v1/account', { auth: acct.auth })).body.credit_balance).toBe(24);
    await check(page, 'campaign-scheduled');
    await page.getByRole('button', { name: 'Cancel the scheduled messages' }).click();
    await page.waitForURL(/\?notice=campaign_cancelled$/);
    expect(await page.getByTestId('refunded').textContent()).toBe('1.00 credits');
    expect(await page.getByTestId('count-cancelled').textContent()).toBe('1');
    expect((await t.api.get('/v1/account', { auth: acct.auth })).body.credit_balance).toBe(25);
    await check(page, 'campaign-cancelled');
    expect(problems).toEqual([]);
  });

  it('sends to a list with a placeholder inserted from its chip, each member getting their own name', async () => {
    const acct = await accountWithOwner(t.app, { test: true, credits: 25, senders: ['Harbour'] });
    const listId = (await t.api.post('/v1/lists', { auth: acct.auth, body: { name: 'Regulars' } })).body.list_id as number;
    for (const [number, first_name] of [
      ['0412800020', 'Ann'],
      ['0412800021', 'Bob'],
    ])
      await t.api.post('/v1/list-contacts', { auth: acct.auth, body: { list_id: listId, number, first_name } });
    const { page, problems } = await ownerPage(acct.ownerEmail);
    await page.goto('/send');
    await page.getByRole('radio', { name: 'A list' }).check();
    await page.getByRole('combobox', { name: 'List' }).selectOption({ label: 'Regulars' });
    await page.getByLabel('Message').fill('Hi ');
    await page.getByRole('button', { name: '{first_name}' }).click();
    await page.getByLabel('Message').press('End');
    await page.getByLabel('Message').pressSequentially(', your usual table is free tonight');
    await page.locator('#preview [data-field="text"]').filter({ hasText: 'Hi Ann, your usual table is free tonight' }).waitFor();
    expect(await page.locator('#preview [data-field="recipients"]').textContent()).toBe('2');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await page.waitForURL(/\/campaigns\/\d+\?notice=send_queued$/);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(`Campaign ${sendIdOf(page)}: List Regulars`);
    await page.locator('[data-testid="count-delivered"]').filter({ hasText: /^2$/ }).waitFor({ timeout: 60_000 });
    const texts = await t.app.get(DataSource).query(`SELECT body FROM messages WHERE send_id = $1 ORDER BY body`, [sendIdOf(page)]);
    expect(texts.map((m: { body: string }) => m.body)).toEqual(['Hi Ann, your usual table is free tonight', 'Hi Bob, your usual table is free tonight']);
    expect(problems).toEqual([]);
  });

  it('shows the reports page with its charts and tables, and downloads the export', async () => {
    const acct = await accountWithOwner(t.app, { test: true, credits: 25, senders: ['Harbour'] });
    await t.api.post('/v1/messages', {
      auth: acct.auth,
      body: { messages: [1, 2, 3].map((i) => ({ to: `041280003${i}`, sender: 'Harbour', message: `Reminder ${i}` })) },
    });
    const { page, problems } = await ownerPage(acct.ownerEmail);
    await page.getByRole('link', { name: 'Reports', exact: true }).click();
    await page.waitForURL('**/reports');
    expect(await page.getByTestId('total-messages').textContent()).toBe('3');
    expect(await page.locator('svg.chart[role="img"]').count()).toBe(6);
    expect(await page.getByRole('img', { name: /Messages per day/ }).count()).toBe(1);
    expect(await page.getByRole('img', { name: /Link clicks per day/ }).count()).toBe(1);
    await check(page, 'reports');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Export messages (CSV)' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^messages-\d{4}-\d{2}-\d{2}-to-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = readFileSync((await download.path())!, 'utf8')
      .trimEnd()
      .split('\r\n');
    expect(csv[0]).toBe('message_id,send_id,requested_at,scheduled_for,to,sender,message,status,failure_reason,encoding,parts,cost,custom_ref');
    expect(
      csv
        .slice(1)
        .map((line) => line.split(',')[6])
        .sort(),
    ).toEqual(['Reminder 1', 'Reminder 2', 'Reminder 3']);
    expect(problems).toEqual([]);
  });
});
