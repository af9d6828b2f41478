import { DataSource } from 'typeorm';
import { ContactImportRunner } from '../../src/contact-imports/contact-import-runner';
import { ContactImportsService } from '../../src/contact-imports/contact-imports.service';
import { accountWithOwner, signedIn, userWith } from '../support/dashboard';
import { failInsertsFor } from '../support/fail-inserts';
import { PageClient, textOf } from '../support/page-client';
import { createAccount, startTestApp, TestAccount, TestApp } from '../support/test-app';
import { until } from '../support/wait';

jest.setTimeout(120_000);

const MAX_ATTEMPTS = 3;

/** Posts a file as an HTML form with enctype="multipart/form-data" does. */
function upload(browser: PageClient, file: { name: string; text: string }) {
  const boundary = '----lifecycle7MA4YWxkTrZu0gW';
  const parts = [`Content-Disposition: form-data; name="_csrf"\r\n\r\n${browser.csrf}`];
  parts.push(`Content-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: text/csv\r\n\r\n${file.text}`);
  const body = `--${boundary}\r\n${parts.join(`\r\n--${boundary}\r\n`)}\r\n--${boundary}--\r\n`;
  return browser.send('POST', '/contacts/imports', body, { 'content-type': `multipart/form-data; boundary=${boundary}` });
}

/** A contact import's life beyond one clean run: bounded retries, consent records from a stated source, and the retention purge. */
describe('Contact imports: retries, consent records, retention', () => {
  let t: TestApp;
  let db: DataSource;

  beforeAll(async () => {
    t = await startTestApp({ contactImportMaxAttempts: MAX_ATTEMPTS, sweepIntervalMs: 200 });
    db = t.app.get(DataSource);
  });
  afterAll(() => t.close());

  const post = (acct: TestAccount, body: unknown) => t.api.post('/v1/contact-imports', { auth: acct.auth, body });
  const state = async (acct: TestAccount, importId: number) => (await t.api.get('/v1/contact-imports', { auth: acct.auth, query: { import_id: importId } })).body;
  async function finished(acct: TestAccount, importId: number) {
    let last: any;
    await until(async () => ['complete', 'failed'].includes((last = await state(acct, importId)).state), `import ${importId} to finish`, 60_000);
    return last;
  }
  const consentOf = async (acct: TestAccount, number: string) => (await t.api.get('/v1/consent', { auth: acct.auth, query: { number } })).body.results;

  it('stops an import that keeps failing after the set number of attempts, failed with the last error as its reason, on the API and the page', async () => {
    const acct = await accountWithOwner(t.app);
    const restore = await failInsertsFor(db, 'contacts', acct.accountId);
    try {
      const created = await post(acct, { csv: 'number\n0412810001\n0412810002\n' });
      expect(created.status).toBe(200);
      const report = await finished(acct, created.body.import_id);
      expect(report).toMatchObject({
        state: 'failed',
        attempts: MAX_ATTEMPTS,
        processed_rows: 0,
        added: 0,
        failure: `The import stopped after ${MAX_ATTEMPTS} attempts; the last one failed: injected failure`,
        finished_at: expect.any(String),
      });
      // Nothing runs it again: the sweep (every 200 ms) leaves a failed import alone.
      await new Promise((r) => setTimeout(r, 1000));
      expect((await state(acct, created.body.import_id)).attempts).toBe(MAX_ATTEMPTS);
      const [{ n }] = await db.query(`SELECT count(*)::int AS n FROM contacts WHERE account_id = $1`, [acct.accountId]);
      expect(n).toBe(0);

      const browser = await signedIn(t.app, await userWith(t.app, acct.accountId, ['manage_contacts']));
      const page = textOf((await browser.get(`/contacts/imports/${created.body.import_id}`)).html);
      expect(page).toContain(`Failed The import stopped after ${MAX_ATTEMPTS} attempts; the last one failed: injected failure`);
      expect(page).toContain(`Attempts ${MAX_ATTEMPTS}`);
    } finally {
      await restore();
    }
  });

  it('fails an import whose every run stopped its worker (runs are counted before they start), saying so', async () => {
    const acct = await createAccount(t.app);
    const created = await post(acct, { csv: 'number\n0412810101\n' });
    await finished(acct, created.body.import_id);
    // As if each run had died before writing anything: the file is back and the counter at the limit.
    await db.query(`UPDATE contact_imports SET state = 'running', finished_at = NULL, csv = $2, attempts = $3, last_error = NULL WHERE id = $1`, [
      created.body.import_id,
      'number\n0412810101\n',
      MAX_ATTEMPTS,
    ]);
    await t.app.get(ContactImportRunner).run(acct.accountId, created.body.import_id);
    const [row] = await db.query(`SELECT state, failure, csv FROM contact_imports WHERE id = $1`, [created.body.import_id]);
    expect(row).toEqual({
      state: 'failed',
      failure: `The import stopped after ${MAX_ATTEMPTS} attempts; its worker stopped before finishing each time`,
      csv: '',
    });
  });

  it('records opt-in consent from a stated source for every number it writes but the opted-out ones, with the API key and the import as evidence', async () => {
    const acct = await createAccount(t.app);
    await t.api.post('/v1/unsubscribes', { auth: acct.auth, body: { number: '0412820003' } });
    await t.api.post('/v1/contacts', { auth: acct.auth, body: { number: '0412820002', first_name: 'Had' } });
    const [{ id: keyId }] = await db.query(`SELECT id FROM api_keys WHERE account_id = $1`, [acct.accountId]);
    const created = await post(acct, {
      csv: 'number,first_name\n0412820001,Ann\n0412820002,Bob\n0412820003,Opted\nnope,Bad\n0412820001,Again\n',
      consent_source: '  Website sign-up form  ',
    });
    expect(created.status).toBe(200);
    expect(created.body.consent_source).toBe('Website sign-up form');
    const report = await finished(acct, created.body.import_id);
    expect(report).toMatchObject({ state: 'complete', added: 2, updated: 1, opted_out_count: 1, consent_source: 'Website sign-up form' });
    for (const number of ['0412820001', '0412820002']) {
      expect(await consentOf(acct, number)).toEqual([
        {
          number: `61${number.slice(1)}`,
          change: 'opt_in',
          source: 'import',
          recorded_at: expect.any(String),
          inbound_message_id: null,
          message_id: null,
          client_address: null,
          api_key_id: keyId,
          user_id: null,
          detail: `import ${created.body.import_id}: Website sign-up form`,
        },
      ]);
    }
    // The opted-out number keeps only its opt-out: an import never opts anyone back in.
    expect((await consentOf(acct, '0412820003')).map((r: { change: string }) => r.change)).toEqual(['opt_out']);

    // Without a source (or a blank one) an import records nothing.
    const plain = await post(acct, { csv: 'number\n0412820004\n', consent_source: '   ' });
    expect((await finished(acct, plain.body.import_id)).consent_source).toBeNull();
    expect(await consentOf(acct, '0412820004')).toEqual([]);
  });

  it('refuses a consent source over 200 characters, storing nothing', async () => {
    const acct = await createAccount(t.app);
    const res = await post(acct, { csv: 'number\n0412820101\n', consent_source: 'x'.repeat(201) });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'consent_source must be at most 200 characters' });
    const [{ n }] = await db.query(`SELECT count(*)::int AS n FROM contact_imports WHERE account_id = $1`, [acct.accountId]);
    expect(n).toBe(0);
  });

  it('takes the consent source from the page’s form and records the person who started the import', async () => {
    const acct = await accountWithOwner(t.app);
    const email = await userWith(t.app, acct.accountId, ['manage_contacts']);
    const [{ id: userId }] = await db.query(`SELECT id FROM users WHERE email = $1`, [email]);
    const browser = await signedIn(t.app, email);
    await browser.get('/contacts/imports');
    const uploaded = await upload(browser, { name: 'shop.csv', text: 'Mobile\n0412830001\n' });
    const path = uploaded.location!;
    expect(textOf((await browser.get(path)).html)).toContain('How these people agreed to hear from you (optional)');
    const tooLong = await browser.post(`${path}/start`, { map_number: '0', consent_source: 'y'.repeat(201) });
    expect([tooLong.status, textOf(tooLong.html).includes('How they agreed must be at most 200 characters')]).toEqual([400, true]);
    const started = await browser.post(`${path}/start`, { map_number: '0', consent_source: 'Signed up at the counter' });
    expect(started.status).toBe(303);
    await until(async () => textOf((await browser.get(path)).html).includes('Complete'), 'the import to complete', 30_000);
    expect(textOf((await browser.get(path)).html)).toContain('Consent recorded as Signed up at the counter');
    const importId = Number(path.split('/').pop());
    expect(await consentOf(acct, '0412830001')).toMatchObject([
      { change: 'opt_in', source: 'import', api_key_id: null, user_id: userId, detail: `import ${importId}: Signed up at the counter` },
    ]);
  });

  it('deletes finished imports past their retention and uploads never started, keeping the rest and the contacts', async () => {
    const acct = await accountWithOwner(t.app);
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) {
      const created = await post(acct, { csv: `number\n041284000${i}\n` });
      await finished(acct, created.body.import_id);
      ids.push(created.body.import_id);
    }
    const browser = await signedIn(t.app, await userWith(t.app, acct.accountId, ['manage_contacts']));
    await browser.get('/contacts/imports');
    const oldDraft = Number((await upload(browser, { name: 'old.csv', text: 'number\n0412840009\n' })).location!.split('/').pop());
    const newDraft = Number((await upload(browser, { name: 'new.csv', text: 'number\n0412840008\n' })).location!.split('/').pop());
    await db.query(`UPDATE contact_imports SET finished_at = now() - interval '31 days' WHERE id = $1`, [ids[0]]);
    await db.query(`UPDATE contact_imports SET finished_at = now() - interval '29 days' WHERE id = $1`, [ids[1]]);
    await db.query(`UPDATE contact_imports SET created_at = now() - interval '25 hours' WHERE id = $1`, [oldDraft]);

    expect(await t.app.get(ContactImportsService).purgeExpired(30, 24)).toBeGreaterThanOrEqual(2);
    const left = (await db.query(`SELECT id::int AS id FROM contact_imports WHERE account_id = $1 ORDER BY id`, [acct.accountId])).map((r: { id: number }) => r.id);
    expect(left).toEqual([ids[1], ids[2], newDraft]);
    const gone = await t.api.get('/v1/contact-imports', { auth: acct.auth, query: { import_id: ids[0] } });
    expect([gone.status, gone.body]).toEqual([404, { error: 'Contact import not found' }]);
    expect((await browser.get(`/contacts/imports/${oldDraft}`)).status).toBe(404);
    expect((await t.api.get('/v1/contacts', { auth: acct.auth, query: { number: '0412840000' } })).body.total).toBe(1);
  });
});
