import type { Page } from 'playwright-core';
import { invalidFields } from '../support/browser';
import { browserSession } from '../support/browser-session';
import { accountWithOwner, PASSWORD } from '../support/dashboard';
import type { TestApp } from '../support/test-app';

// A browser journey with axe on every page takes tens of seconds on a shared 2-core machine.
jest.setTimeout(120_000);

/** Settings › Quiet hours in headless Chromium: turned on from the navigation, a refused time read on the page, then saved as the API reads it. */
describe('Quiet hours in a browser', () => {
  const { session, check } = browserSession({ appRole: 'api' });
  let t: TestApp;
  let page: Page;
  beforeAll(() => {
    ({ t, page } = session);
  });
  const expectText = (text: string) => page.getByText(text, { exact: false }).first().waitFor({ state: 'visible', timeout: 5000 });

  it('turns quiet hours on with hours, weekdays, a holiday and the zone field, after a refused time is explained on the page', async () => {
    const acct = await accountWithOwner(t.app, { credits: 5, senders: ['Brand'] });
    await page.goto('/sign-in');
    await page.getByLabel('Email').fill(acct.ownerEmail);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL('**/overview');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Quiet hours', exact: true }).click();
    await page.waitForURL('**/settings/quiet-hours');
    await expectText('Off: messages go whenever they are sent or scheduled.');
    await check('quiet-hours-off');

    await page.getByLabel('Quiet hours on').check();
    await page.getByLabel('Sending may start at (HH:MM)').fill('9am');
    await page.getByLabel('Saturday').uncheck();
    await page.getByLabel('Sunday').uncheck();
    await page.getByLabel('Dates with no sending, one YYYY-MM-DD a line, at most 100').fill('2026-12-25\n2026-12-28');
    await page.getByLabel('Recipient’s time zone from').selectOption({ label: 'Contact field: Field 2' });
    await page.getByRole('button', { name: 'Save quiet hours' }).click();
    await expectText('Enter the time sending may start as HH:MM on a 24-hour clock, from 00:00 to 24:00, such as 09:00');
    expect(await page.getByLabel('Dates with no sending, one YYYY-MM-DD a line, at most 100').inputValue()).toBe('2026-12-25\n2026-12-28');
    expect(await page.getByLabel('Saturday').isChecked()).toBe(false);
    expect(await invalidFields(page)).toEqual([
      { id: 'allowed_from', describedBy: expect.stringMatching(/^Enter the time sending may start as HH:MM on a 24-hour clock, from 00:00 to 24:00, such as 09:00 \| \S/) },
    ]);
    await check('quiet-hours-error');

    await page.getByLabel('Sending may start at (HH:MM)').fill('08:00');
    await page.getByLabel('Sending must stop at (HH:MM)').fill('19:30');
    await page.getByRole('button', { name: 'Save quiet hours' }).click();
    await page.waitForURL('**/settings/quiet-hours?notice=quiet_hours_saved');
    await expectText('On: 08:00 to 19:30 on Monday, Tuesday, Wednesday, Thursday, Friday, except 2 date(s), in the zone in each contact’s Field 2');
    await check('quiet-hours-on');
    expect((await t.api.get('/v1/quiet-hours', { auth: acct.auth })).body).toEqual({
      status: 'complete',
      enabled: true,
      allowed_from: '08:00',
      allowed_until: '19:30',
      days: ['mon', 'tue', 'wed', 'thu', 'fri'],
      skip_dates: ['2026-12-25', '2026-12-28'],
      zone_field: 'field_2',
    });
  });
});
