import type { Page } from 'playwright-core';
import { browserSession } from '../support/browser-session';
import { accountWithOwner, PASSWORD } from '../support/dashboard';
import type { TestApp } from '../support/test-app';

// A browser journey with axe on every page takes tens of seconds on a shared 2-core machine.
jest.setTimeout(120_000);

/** The Opt-outs page in headless Chromium (JavaScript on, strict CSP), each page checked with axe and photographed at phone and desktop sizes. */
describe('Opt-outs in a browser', () => {
  const { session, check } = browserSession({ appRole: 'api' });
  let t: TestApp;
  let page: Page;
  beforeAll(() => {
    ({ t, page } = session);
  });
  const send = (auth: string, to: string) => t.api.post('/v1/messages', { auth, body: { messages: [{ to, message: 'Hi', sender: 'Brand' }] } });

  it('an opt-out added on the page blocks the next send; removing it after the confirmation lets sends through again', async () => {
    const acct = await accountWithOwner(t.app, { credits: 10, senders: ['Brand'], name: 'Harbour Bakery' });
    expect((await send(acct.auth, '0412960001')).body.results[0].status).toBe('success');

    await page.goto('/sign-in');
    await page.getByLabel('Email').fill(acct.ownerEmail);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL('**/overview');
    await page.goto('/contacts');
    await page.getByRole('navigation', { name: 'Contacts sections' }).getByRole('link', { name: 'Opt-outs' }).click();
    await page.getByText('No one has opted out.').waitFor();
    await check('opt-outs-empty');
    await page.getByLabel('Mobile number').fill('0412 960 001');
    await page.getByRole('button', { name: 'Add to opt-outs' }).click();
    await page.getByText('Added to the opt-outs.').waitFor();
    await page.getByRole('cell', { name: '61412960001', exact: true }).waitFor();
    await check('opt-outs-list');
    expect((await send(acct.auth, '0412960001')).body.results[0]).toMatchObject({ status: 'blocked', error: 'Recipient has unsubscribed' });

    await page.getByRole('link', { name: 'Remove 61412960001 from the opt-outs' }).click();
    await page.getByRole('heading', { name: 'Remove 61412960001 from the opt-outs?' }).waitFor();
    await check('opt-out-remove');
    await page.getByRole('button', { name: 'Remove the opt-out' }).click();
    await page.getByText('Removed from the opt-outs.').waitFor();
    expect((await send(acct.auth, '0412960001')).body.results[0].status).toBe('success');
  });
});
