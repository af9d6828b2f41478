import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { ContactImportRunner } from '../../src/contact-imports/contact-import-runner';
import { browserSession } from '../support/browser-session';
import { accountWithOwner, PASSWORD } from '../support/dashboard';
import type { TestApp } from '../support/test-app';

// A browser journey with axe on every page takes tens of seconds on a shared 2-core machine.
jest.setTimeout(120_000);

/** The Imports page in headless Chromium (JavaScript on, strict CSP), each page checked with axe and photographed at phone and desktop sizes. */
describe('Contact imports in a browser', () => {
  // An API-only process runs no import jobs: the test runs the worker's step itself, while the page is open.
  const { session, check } = browserSession({ appRole: 'api' });
  let t: TestApp;
  let page: Page;
  beforeAll(() => {
    ({ t, page } = session);
  });

  it('uploads 1000 rows with a bad line, maps the columns, follows the progress without a reload, and shows the report', async () => {
    const acct = await accountWithOwner(t.app, { name: 'Harbour Bakery' });
    const lines = ['Phone,First,Surname,Suburb'];
    for (let i = 0; i < 1000; i++) lines.push(i === 500 ? '0298765432,Landline,Line,Sydney' : `04${String(13_000_000 + i).slice(-8)},Name${i},Family${i},Suburb ${i % 7}`);
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'import-browser-')), 'customers.csv');
    writeFileSync(file, `${lines.join('\n')}\n`);

    await page.goto('/sign-in');
    await page.getByLabel('Email').fill(acct.ownerEmail);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL('**/overview');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Contacts', exact: true }).click();
    await page.getByRole('navigation', { name: 'Contacts sections' }).getByRole('link', { name: 'Imports' }).click();
    await page.waitForURL('**/contacts/imports');
    await page.getByText('No imports yet.').waitFor();
    await check('contact-imports-empty');

    await page.getByLabel('CSV file').setInputFiles(file);
    await page.getByRole('button', { name: 'Upload' }).click();
    await page.waitForURL(/\/contacts\/imports\/\d+$/);
    await page.getByRole('heading', { name: 'Map the columns of customers.csv' }).waitFor();
    await page.getByRole('cell', { name: 'Name0', exact: true }).waitFor();
    // Phone is guessed as the number, First as the first name; the surname and suburb are chosen by hand.
    expect(await page.getByLabel('Mobile number', { exact: true }).inputValue()).toBe('0');
    expect(await page.getByLabel('First name').inputValue()).toBe('1');
    await page.getByLabel('Last name').selectOption({ label: 'Surname' });
    await page.getByLabel('Field 1').selectOption({ label: 'Suburb' });
    await page.getByLabel('Or a new list named').fill('Customers');
    await check('contact-import-mapping');
    await page.getByRole('button', { name: 'Start the import' }).click();
    await page.waitForURL(/\?notice=import_started$/);
    await page.getByRole('heading', { name: 'Waiting to start' }).waitFor();
    await check('contact-import-queued');

    let navigations = 0;
    page.on('framenavigated', () => navigations++);
    const importId = Number(/\/contacts\/imports\/(\d+)/.exec(page.url())![1]);
    await t.app.get(ContactImportRunner).run(acct.accountId, importId);
    await page.getByRole('heading', { name: 'Complete' }).waitFor({ timeout: 15_000 });
    expect(navigations).toBe(0);
    const status = page.locator('#import-status');
    await status.getByText('Lines in the file').waitFor();
    const text = (await status.innerText()).replace(/\s+/g, ' ');
    expect(text).toContain('Lines in the file 1000');
    expect(text).toContain('Contacts added 999');
    expect(text).toContain('Added to the list Customers 999');
    expect(text).toContain('Invalid lines skipped 1');
    expect(text).toContain('502 Invalid phone number format');
    await check('contact-import-report');

    const contact = (await t.api.get('/v1/contacts', { auth: acct.auth, query: { number: '0413000007' } })).body.results[0];
    expect(contact).toMatchObject({ first_name: 'Name7', last_name: 'Family7', field_1: 'Suburb 0' });
    await page.getByRole('link', { name: '← Imports' }).click();
    await page.getByRole('cell', { name: 'customers.csv' }).waitFor();
    await check('contact-imports-list');
  });
});
