import { accountWithOwner, DashboardAccount, signedIn, userWith } from '../support/dashboard';
import { PageClient, PageResponse, textOf } from '../support/page-client';
import { startTestApp, TestApp } from '../support/test-app';
import { until } from '../support/wait';

// Signing people in hashes passwords (scrypt) on a shared 2-core machine.
jest.setTimeout(120_000);

const UPLOAD_LIMIT = 64 * 1024;

/** Posts a file as an HTML form with enctype="multipart/form-data" does. */
function upload(browser: PageClient, url: string, file: { name: string; text: string } | null, csrf = browser.csrf): Promise<PageResponse> {
  const boundary = '----import7MA4YWxkTrZu0gW';
  const parts = [`Content-Disposition: form-data; name="_csrf"\r\n\r\n${csrf}`];
  parts.push(
    file
      ? `Content-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: text/csv\r\n\r\n${file.text}`
      : `Content-Disposition: form-data; name="file"; filename=""\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  const body = `--${boundary}\r\n${parts.join(`\r\n--${boundary}\r\n`)}\r\n--${boundary}--\r\n`;
  return browser.send('POST', url, body, { 'content-type': `multipart/form-data; boundary=${boundary}` });
}

/** The Imports page without JavaScript: upload, map the columns, start, the report on reload; and who may use it. */
describe('Dashboard: contact imports', () => {
  let t: TestApp;
  let acct: DashboardAccount;
  let browser: PageClient;

  beforeAll(async () => {
    t = await startTestApp({ pageUploadLimitBytes: UPLOAD_LIMIT });
    acct = await accountWithOwner(t.app);
    browser = await signedIn(t.app, await userWith(t.app, acct.accountId, ['manage_contacts']));
  });
  afterAll(() => t.close());

  async function uploaded(text: string, name = 'people.csv'): Promise<string> {
    await browser.get('/contacts/imports');
    const res = await upload(browser, '/contacts/imports', { name, text });
    expect(res.status).toBe(303);
    expect(res.location).toMatch(/^\/contacts\/imports\/\d+$/);
    return res.location!;
  }

  it('uploads a file, previews it with the columns guessed, imports it into a new list, and shows the report on reload', async () => {
    await t.api.post('/v1/unsubscribes', { auth: acct.auth, body: { number: '0412800004' } });
    const path = await uploaded('Mobile,Given name,Notes\r\n0412 800 001,Ann,VIP\r\n0412800002,Bob,\r\nnope,Bad,\r\n0412800004,Opted,\r\n0412800001,Again,\r\n');
    const mapping = await browser.get(path);
    expect(mapping.status).toBe(200);
    const text = textOf(mapping.html);
    expect(text).toContain('Map the columns of people.csv');
    expect(text).toContain('Mobile Given name Notes 0412 800 001 Ann VIP');
    // Guessed from the headers: Mobile is the number, Given name the first name; Notes is left out.
    expect(mapping.html).toMatch(/<select id="map-number" name="map_number" required>[\s\S]*?<option value="0" selected>Mobile<\/option>/);
    expect(mapping.html).toMatch(/<select id="map-first_name"[\s\S]*?<option value="1" selected>Given name<\/option>/);

    const started = await browser.post(`${path}/start`, { map_number: '0', map_first_name: '1', map_other: '2', list_id: '', new_list: 'From the page' });
    expect(started.status).toBe(303);
    expect(started.location).toBe(`${path}?notice=import_started`);
    await until(async () => textOf((await browser.get(path)).html).includes('Complete'), 'the import to complete', 30_000);
    const report = textOf((await browser.get(path)).html);
    expect(report).toContain('Lines in the file 5');
    expect(report).toContain('Contacts added 3');
    expect(report).toContain('Added to the list From the page 2');
    expect(report).toContain('Invalid lines skipped 1');
    expect(report).toContain('Repeated numbers skipped 1');
    expect(report).toContain('Opted-out numbers kept out of lists 1');
    expect(report).toContain('4 Invalid phone number format');
    expect(report).toContain('6 61412800001 2');
    // The table keeps only when the file came in (created_at), so the report names it so, not as when the import started.
    expect(report).toMatch(/Uploaded \d{4}-\d\d-\d\d \d\d:\d\d:\d\d AE[DS]T Finished/);
    expect(report).not.toContain('Started');
    const contact = (await t.api.get('/v1/contacts', { auth: acct.auth, query: { number: '0412800001' } })).body.results[0];
    expect(contact).toMatchObject({ first_name: 'Ann', other: 'VIP' });

    const again = await browser.post(`${path}/start`, { map_number: '0' });
    expect([again.status, textOf(again.html).includes('This import has already been started')]).toEqual([409, true]);
    const listed = textOf((await browser.get('/contacts/imports')).html);
    expect(listed).toContain('File State List Added Updated Uploaded');
    expect(listed).toContain('people.csv Complete From the page 3 0');
  });

  it('refuses a start without the number column, an empty upload, a file without a header, an upload over the limit and a forged form, keeping nothing half-done', async () => {
    const path = await uploaded('a,b\n0412800101,x\n');
    const noNumber = await browser.post(`${path}/start`, { map_number: '', map_first_name: '1' });
    expect([noNumber.status, textOf(noNumber.html).includes('Choose the column that holds the mobile numbers')]).toEqual([400, true]);
    const badColumn = await browser.post(`${path}/start`, { map_number: '7' });
    expect([badColumn.status, textOf(badColumn.html).includes('Choose a column for Mobile number from the list')]).toEqual([400, true]);

    await browser.get('/contacts/imports');
    const none = await upload(browser, '/contacts/imports', null);
    expect([none.status, textOf(none.html).includes('Choose a CSV file to upload')]).toEqual([400, true]);
    const unreadable = await upload(browser, '/contacts/imports', { name: 'bad.csv', text: '"number\n' });
    expect([unreadable.status, textOf(unreadable.html).includes('CSV could not be read')]).toEqual([400, true]);
    const tooBig = await upload(browser, '/contacts/imports', { name: 'big.csv', text: `number\n${'0412800200\n'.repeat(UPLOAD_LIMIT / 11 + 10)}` });
    expect([tooBig.status, textOf(tooBig.html).includes('Request body is too large')]).toEqual([413, true]);
    const forged = await upload(browser, '/contacts/imports', { name: 'x.csv', text: 'number\n0412800300\n' }, 'forged');
    expect(forged.status).toBe(403);
    const forgedStart = await browser.post(`${path}/start`, { _csrf: 'forged', map_number: '0' });
    expect(forgedStart.status).toBe(403);
    // The draft is still a draft: nothing was imported.
    expect(textOf((await browser.get(path)).html)).toContain('Map the columns');
  });

  it('explains on the Imports page a file that is not UTF-8 text (a Windows-1252 CSV, a binary file) instead of a bare 400', async () => {
    const before = textOf((await browser.get('/contacts/imports')).html);
    const boundary = '----import7MA4YWxkTrZu0gW';
    const files = [
      Buffer.from('number,first_name\n0491570124,Ren\xe9e\n', 'latin1'),
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0xff]),
      Buffer.from('number\n\u0000\n'),
    ];
    for (const bytes of files) {
      await browser.get('/contacts/imports');
      const body = Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="_csrf"\r\n\r\n${browser.csrf}\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="Renée.csv"\r\nContent-Type: text/csv\r\n\r\n`,
        ),
        bytes,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
      const res = await browser.send('POST', '/contacts/imports', body, { 'content-type': `multipart/form-data; boundary=${boundary}` });
      expect(res.status).toBe(400);
      const text = textOf(res.html);
      expect(text).toContain('Import contacts');
      expect(text).toContain('The file is not UTF-8 text. Save it as CSV UTF-8 and upload it again.');
      expect(text).not.toContain('That did not work');
    }
    // Nothing was kept: the list of imports is as it was.
    expect(textOf((await browser.get('/contacts/imports')).html)).toBe(before);
    // The same file saved as UTF-8 is taken, its name too.
    const path = await uploaded('number,first_name\n0491570124,Renée\n', 'Renée.csv');
    expect(textOf((await browser.get(path)).html)).toContain('Map the columns of Renée.csv');
  });

  it('is for manage_contacts only, and an import of another account is not found', async () => {
    const viewer = await signedIn(t.app, await userWith(t.app, acct.accountId, ['manage_senders']));
    expect((await viewer.get('/contacts/imports')).status).toBe(403);
    const path = await uploaded('number\n0412800401\n');
    expect((await viewer.get(path)).status).toBe(403);
    const other = await accountWithOwner(t.app);
    const stranger = await signedIn(t.app, await userWith(t.app, other.accountId, ['manage_contacts']));
    expect((await stranger.get(path)).status).toBe(404);
    expect((await stranger.get('/contacts/imports/abc')).status).toBe(404);
  });
});
