import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { DataSource } from 'typeorm';
import { SmscSimulator } from '../../src/smsc-sim/smsc-simulator';
import { inspectPage, launchChromium, watchForProblems } from '../support/browser';
import { accountWithOwner, PASSWORD } from '../support/dashboard';
import { smppSettings, startSmsc } from '../support/delivery';
import { startTestApp, TestApp } from '../support/test-app';
import { until } from '../support/wait';

// A browser journey with axe on every page takes tens of seconds on a shared 2-core machine.
jest.setTimeout(150_000);

const NUMBER = '61400000061';
const MOBILE = '61412930001';

/**
 * The inbox of a live account in headless Chromium, against the bundled SMSC simulator over SMPP: a reply
 * the SMSC delivers (deliver_sm) appears in the inbox, a reply sent from the thread reaches the SMSC as a
 * submit_sm from the number they wrote to, and an opt-out added on the Opt-outs page stops the next one.
 * Every page is checked with axe and photographed at phone and desktop sizes.
 */
describe('Inbox of a live account, through the SMSC, in a browser', () => {
  let smsc: SmscSimulator;
  let t: TestApp;
  let browser: Browser;
  let page: Page;
  let problems: string[];
  const accessibility: string[] = [];

  beforeAll(async () => {
    const started = await startSmsc({ receiptDelayMs: 100 });
    smsc = started.smsc;
    t = await startTestApp(smppSettings(started.port));
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
    browser = await launchChromium();
    page = await (await browser.newContext({ baseURL: base })).newPage();
    problems = watchForProblems(page);
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await smsc?.stop();
  });
  afterEach(() => {
    expect(problems).toEqual([]);
  });
  afterAll(() => {
    expect(accessibility).toEqual([]);
  });

  const check = async (name: string) => accessibility.push(...(await inspectPage(page, name)));
  const submitsTo = (mobile: string) => smsc.submits.filter((s) => s.destinationAddr === mobile && s.smscId !== null);

  it('a reply from the SMSC appears in the inbox → a reply from the thread reaches the SMSC → an opt-out added on the page blocks the next one', async () => {
    const acct = await accountWithOwner(t.app, { credits: 10, senders: [NUMBER], name: 'Harbour Bakery' });
    await t.api.post('/v1/messages', { auth: acct.auth, body: { messages: [{ to: MOBILE, message: 'Your bread is ready', sender: NUMBER }] } });
    await until(() => submitsTo(MOBILE).length === 1, 'the first message at the SMSC');
    await smsc.injectMo({ from: MOBILE, to: NUMBER, text: 'Can you keep it until 6?' });

    await page.goto('/sign-in');
    await page.getByLabel('Email').fill(acct.ownerEmail);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL('**/overview');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Inbox', exact: true }).click();
    await page.waitForURL('**/inbox');
    await page.getByText('1 unread').waitFor();
    await check('inbox-smsc-list');

    await page.getByRole('link', { name: MOBILE }).click();
    await page.getByRole('heading', { name: `Conversation with ${MOBILE}` }).waitFor();
    await page.getByText('Can you keep it until 6?').waitFor();
    await page.getByRole('textbox', { name: 'Message' }).fill('Of course, see you at 6');
    await page.getByRole('button', { name: 'Send reply' }).click();
    await page.getByText('Reply sent.').waitFor();
    // A real submit_sm at the simulator, from the number they wrote to.
    await until(() => submitsTo(MOBILE).length === 2, 'the reply at the SMSC');
    expect(submitsTo(MOBILE)[1]).toMatchObject({ sourceAddr: NUMBER, sourceAddrTon: 1, text: 'Of course, see you at 6' });
    const threadUrl = page.url().replace(/\?.*$/, '');
    await check('inbox-smsc-thread-replied');

    await page.goto('/contacts');
    await page.getByRole('navigation', { name: 'Contacts sections' }).getByRole('link', { name: 'Opt-outs' }).click();
    await page.getByLabel('Mobile number').fill('0412 930 001');
    await page.getByRole('button', { name: 'Add to opt-outs' }).click();
    await page.getByText('Added to the opt-outs.').waitFor();
    await check('inbox-smsc-opted-out');

    await page.goto(threadUrl);
    await page.getByRole('textbox', { name: 'Message' }).fill('One more thing');
    await page.getByRole('button', { name: 'Send reply' }).click();
    await page.getByText('Recipient has unsubscribed').waitFor();
    expect(await page.getByRole('textbox', { name: 'Message' }).inputValue()).toBe('One more thing');
    await check('inbox-smsc-reply-blocked');
    // Nothing was accepted, so nothing can reach the SMSC.
    expect(await t.app.get(DataSource).query(`SELECT id FROM messages WHERE account_id = $1 AND body = 'One more thing'`, [acct.accountId])).toEqual([]);
    await new Promise((r) => setTimeout(r, 1000));
    expect(submitsTo(MOBILE)).toHaveLength(2);
  });
});
