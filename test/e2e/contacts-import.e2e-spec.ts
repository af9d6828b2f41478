import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DataSource } from 'typeorm';
import { runCli } from '../support/run-cli';
import { createAccount, startTestApp, TestApp } from '../support/test-app';

describe('contacts:import (operator CLI)', () => {
  let t: TestApp;
  const dir = mkdtempSync(path.join(tmpdir(), 'import-'));
  const file = (name: string, text: string) => {
    const p = path.join(dir, name);
    writeFileSync(p, text);
    return p;
  };

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('imports rows into a new list through the import job and reports added, updated, invalid lines, duplicates and opted-out numbers', async () => {
    const acct = await createAccount(t.app);
    await t.api.post('/v1/contacts', { auth: acct.auth, body: { number: '0412500003', first_name: 'Old', company: 'Keep Co', last_name: 'Kept' } });
    await t.api.post('/v1/unsubscribes', { auth: acct.auth, body: { number: '0412500004' } });
    const csv = [
      'number,first_name,company',
      '0412500001,Ann,Acme',
      '"0412 500 002","Bob, Jr",',
      '0412500003,New,Updated Co',
      'not-a-number,Bad,',
      '0298765432,Landline,',
      '+61412500001,Again,',
      ',Nobody,',
      '0412500004,Opted,',
    ].join('\n');
    const res = await runCli('contacts:import', '--account', String(acct.accountId), '--list', 'Imported', '--file', file('a.csv', csv));
    expect(res.code).toBe(0);
    expect(res.json).toEqual({
      account_id: acct.accountId,
      import_id: expect.any(Number),
      state: 'complete',
      list_id: expect.any(Number),
      list_name: 'Imported',
      rows: 8,
      added: 3,
      updated: 1,
      added_to_list: 3,
      skipped_invalid: 3,
      skipped_duplicates: 1,
      opted_out_count: 1,
      invalid: [
        { line: 5, reason: 'Invalid phone number format' },
        { line: 6, reason: 'Invalid phone number format' },
        { line: 8, reason: 'number is required' },
      ],
      duplicates: [{ line: 7, number: '61412500001', first_line: 2 }],
      // Opted out: a contact, never a list member (the CLI used to add it to the list).
      opted_out: [{ line: 9, number: '61412500004' }],
      consent_source: null,
      failure: null,
    });
    // The same import the API and the page make: its report is readable there too.
    const viaApi = await t.api.get('/v1/contact-imports', { auth: acct.auth, query: { import_id: res.json.import_id } });
    expect(viaApi.body).toMatchObject({ state: 'complete', added: 3, updated: 1, added_to_list: 3, processed_rows: 4 });
    const [origin] = await t.app.get(DataSource).query(`SELECT origin, file_name, csv FROM contact_imports WHERE id = $1`, [res.json.import_id]);
    expect(origin).toEqual({ origin: 'cli', file_name: 'a.csv', csv: '' });
    const members = await t.api.get('/v1/list-contacts', { auth: acct.auth, query: { list_id: res.json.list_id } });
    expect(members.body.total).toBe(3);
    const updated = (await t.api.get('/v1/contacts', { auth: acct.auth, query: { number: '0412500003' } })).body.results[0];
    // Only the columns in the file change: last_name stays.
    expect(updated).toMatchObject({ first_name: 'New', company: 'Updated Co', last_name: 'Kept' });
    const bob = (await t.api.get('/v1/contacts', { auth: acct.auth, query: { number: '0412500002' } })).body.results[0];
    expect(bob).toMatchObject({ first_name: 'Bob, Jr', company: '' });

    const again = await runCli('contacts:import', '--account', String(acct.accountId), '--list', 'Imported', '--file', file('a.csv', csv));
    expect(again.json).toMatchObject({ added: 0, updated: 4, added_to_list: 0, list_id: res.json.list_id });
    expect(again.json.import_id).not.toBe(res.json.import_id);
  });

  it('records opt-in consent with --consent-source for the numbers it imports', async () => {
    const acct = await createAccount(t.app);
    const res = await runCli(
      'contacts:import',
      '--account',
      String(acct.accountId),
      '--list',
      'Members',
      '--file',
      file('m.csv', 'number\n0412500101\n'),
      '--consent-source',
      'Membership form',
    );
    expect([res.code, res.json.consent_source]).toEqual([0, 'Membership form']);
    const records = (await t.api.get('/v1/consent', { auth: acct.auth, query: { number: '0412500101' } })).body.results;
    expect(records).toMatchObject([{ change: 'opt_in', source: 'import', detail: `import ${res.json.import_id}: Membership form`, api_key_id: null, user_id: null }]);
  });

  it.each([
    ['no number column', 'first_name\nAnn\n', 'The header row must name a number column'],
    ['an unknown column', 'number,nickname\n0412500009,Al\n', 'Unknown column(s) nickname'],
    ['an empty file', '', 'CSV is empty'],
  ])('refuses a file with %s and imports nothing', async (_case, csv, message) => {
    const acct = await createAccount(t.app);
    const res = await runCli('contacts:import', '--account', String(acct.accountId), '--list', 'L', '--file', file('bad.csv', csv));
    expect(res.code).toBe(1);
    expect(res.stderr).toContain(message);
    expect((await t.api.get('/v1/lists', { auth: acct.auth })).body.results).toEqual([]);
    const [{ n }] = await t.app.get(DataSource).query(`SELECT count(*)::int AS n FROM contact_imports WHERE account_id = $1`, [acct.accountId]);
    expect(n).toBe(0);
  });

  it('fails clearly for a missing file', async () => {
    const acct = await createAccount(t.app);
    const res = await runCli('contacts:import', '--account', String(acct.accountId), '--list', 'L', '--file', path.join(dir, 'nope.csv'));
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('cannot read --file');
  });
});
