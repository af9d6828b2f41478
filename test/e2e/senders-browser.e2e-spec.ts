import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { DataSource } from 'typeorm';
import { NumberImportService } from '../../src/numbers/number-import.service';
import { inspectPage, invalidFields, launchChromium, watchForProblems } from '../support/browser';
import { accountWithOwner, PASSWORD } from '../support/dashboard';
import { runCli } from '../support/run-cli';
import { startTestApp, TestApp } from '../support/test-app';
import { until } from '../support/wait';

// A browser journey with axe on every page takes tens of seconds on a shared 2-core machine.
jest.setTimeout(120_000);

/** The Sender IDs page in headless Chromium (JavaScript on, strict CSP), each page checked with axe and photographed at phone and desktop sizes. */
describe('Sender IDs in a browser', () => {
  let t: TestApp;
  let base: string;
  let browser: Browser;
  let page: Page;
  let problems: string[];
  const accessibility: string[] = [];

  beforeAll(async () => {
    t = await startTestApp({ testReceiptDelayMs: 100, sweepIntervalMs: 200 });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
    browser = await launchChromium();
    page = await (await browser.newContext({ baseURL: base })).newPage();
    problems = watchForProblems(page);
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });
  afterEach(() => {
    expect(problems).toEqual([]);
  });
  afterAll(() => {
    expect(accessibility).toEqual([]);
  });

  const check = async (name: string) => accessibility.push(...(await inspectPage(page, name)));
  const expectText = (text: string) => page.getByText(text, { exact: false }).first().waitFor({ state: 'visible', timeout: 5000 });

  it('claim the free number and submit a registration on the page → approve with the CLI → active on the page and sendable by API; an own mobile confirmed by its link', async () => {
    await t.app.get(NumberImportService).importCsv('number,annual_price_ex_gst\n0400 000 777,120\n');
    const acct = await accountWithOwner(t.app, { credits: 10, senders: [], name: 'Harbour Bakery' });

    await page.goto('/sign-in');
    await page.getByLabel('Email').fill(acct.ownerEmail);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL('**/overview');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Sender IDs', exact: true }).click();
    await page.waitForURL('**/senders');
    await expectText('No active senders yet.');
    await check('senders-empty');

    // The free number, for a service address typed as a person would.
    await page.getByLabel('Street address').fill('Level 2, 10 Smith St');
    await page.getByLabel('Suburb or town').fill('Sydney');
    await page.getByLabel('State or territory').selectOption('NSW');
    await page.getByLabel('Postcode').fill('2000');
    await page.getByRole('button', { name: 'Claim my free number' }).click();
    await page.waitForURL('**/senders?notice=free_number_claimed#free-heading');
    expect(await page.getByTestId('free-number').textContent()).toMatch(/Number\s*61400000777\s*Service address\s*Level 2, 10 Smith St, Sydney NSW 2000/);

    // A Sender ID registration: a bad ABN first, then the right one.
    await page.getByLabel('Sender ID', { exact: true }).fill('Harbour');
    await page.getByLabel('Business name').fill('Harbour Bakery Pty Ltd');
    await page.getByLabel('ABN', { exact: true }).fill('51 824 753 557');
    await page.getByLabel('Why you send as this ID').fill('Order and delivery notices');
    await page.getByRole('button', { name: 'Submit registration' }).click();
    await expectText('That is not a valid ABN: its check digits do not match. Check it and try again.');
    expect(await invalidFields(page)).toEqual([
      { id: 'reg-abn', describedBy: expect.stringMatching(/^That is not a valid ABN: its check digits do not match\. Check it and try again\. \| \S/) },
    ]);
    await check('senders-form-error');
    await page.getByLabel('ABN', { exact: true }).fill('51 824 753 556');
    await page.getByRole('button', { name: 'Submit registration' }).click();
    await page.waitForURL('**/senders?notice=registration_submitted#registration-heading');
    const row = page.locator('tr[data-registration]');
    expect(await row.textContent()).toMatch(/Harbour\s*Awaiting review/);

    // An own mobile: pending until its texted link is opened.
    await page.getByLabel('Mobile number').fill('0412 777 001');
    await page.getByLabel('Label (optional)').fill('Sam’s mobile');
    await page.getByRole('button', { name: 'Text me a link' }).click();
    await page.waitForURL('**/senders?notice=own_link_sent#own-heading');
    await expectText('Waiting for confirmation');
    await until(async () => {
      await page.reload();
      return (await page.getByTestId('confirmation-status').textContent()) === 'delivered';
    }, 'the confirmation text delivered');
    await check('senders-pending');

    // The operator approves with the CLI; the page shows it active and the API sends from it.
    const id = (await row.getAttribute('data-registration'))!;
    const approved = await runCli('registration:approve', '--id', id);
    expect(approved.code).toBe(0);
    await page.reload();
    expect(await row.textContent()).toMatch(/Harbour\s*Approved/);
    const active = page.getByRole('table').first();
    expect(await active.textContent()).toMatch(/61400000777\s*Dedicated number/);
    expect(await active.textContent()).toMatch(/Harbour\s*Sender ID\s*Harbour Bakery Pty Ltd\s*Deactivate…/);
    await check('senders');
    const sent = await fetch(`${base}/v1/messages`, {
      method: 'POST',
      headers: { authorization: acct.auth, 'content-type': 'application/json' },
      body: JSON.stringify({ messages: [{ to: '0412345678', message: 'Your order is ready', sender: 'Harbour' }] }),
    });
    expect(sent.status).toBe(200);
    expect(((await sent.json()) as { results: Array<{ status: string; sender: string }> }).results[0]).toMatchObject({ status: 'success', sender: 'Harbour' });

    // The texted link, opened on "the phone" (read from the stored text, which a handset would show).
    const [{ body }] = await t.app
      .get(DataSource)
      .query(`SELECT m.body FROM sender_verifications v JOIN messages m ON m.id = v.message_id WHERE v.number = '61412777001' ORDER BY v.id DESC LIMIT 1`);
    const link = new URL(/https?:\/\/\S+\/senders\/confirm\/[A-Za-z0-9_-]+/.exec(body)![0]);
    const phone = await (await browser.newContext({ baseURL: base })).newPage();
    const phoneProblems = watchForProblems(phone);
    await phone.goto(link.pathname);
    await phone.getByText('is now a sender of Harbour Bakery').waitFor();
    accessibility.push(...(await inspectPage(phone, 'sender-confirm')));
    await phone.goto(link.pathname.replace(/[^/]+$/, 'AAAAAAAAAAAAAAAAAAAAAA'));
    await phone.getByText('This confirmation link is invalid, already used or expired.').waitFor();
    accessibility.push(...(await inspectPage(phone, 'sender-confirm-invalid')));
    expect(phoneProblems).toEqual([]);
    await phone.context().close();

    await page.reload();
    expect(await active.textContent()).toMatch(/61412777001\s*Your mobile\s*Sam’s mobile\s*Deactivate…/);
    await page.getByRole('link', { name: 'Deactivate 61412777001' }).click();
    await page.waitForURL('**/deactivate');
    await check('sender-deactivate');
    await page.getByRole('button', { name: 'Deactivate' }).click();
    await page.waitForURL('**/senders?notice=sender_deactivated');
    expect(await active.textContent()).not.toContain('61412777001');
  });
});
