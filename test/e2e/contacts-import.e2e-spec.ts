import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
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

  it('imports rows into a new list and reports added, updated, invalid lines and duplicates', async () => {
    const acct = await createAccount(t.app);
    await t.api.post('/v1/contacts', { auth: acct.auth, body: { number: '0412500003', first_name: 'Old', company: 'Keep Co', last_name: 'Kept' } });
    const csv = [
      'number,first_name,company',
      '0412500001,Ann,Acme',
      '"0412 500 002","Bob, Jr",',
      '0412500003,New,Updated Co',
      'not-a-number,Bad,',
      '0298765432,Landline,',
      '+61412500001,Again,',
      ',Nobody,',
    ].join('\n');
    const res = await runCli('contacts:import', '--account', String(acct.accountId), '--list', 'Imported', '--file', file('a.csv', csv));
    expect(res.code).toBe(0);
    expect(res.json).toEqual({
      account_id: acct.accountId,
      list_id: expect.any(Number),
      list_name: 'Imported',
      rows: 7,
      added: 2,
      updated: 1,
      added_to_list: 3,
      skipped_invalid: 3,
      skipped_duplicates: 1,
      invalid: [
        { line: 5, reason: 'Invalid phone number format' },
        { line: 6, reason: 'Invalid phone number format' },
        { line: 8, reason: 'number is required' },
      ],
      duplicates: [{ line: 7, number: '61412500001', first_line: 2 }],
    });
    const members = await t.api.get('/v1/list-contacts', { auth: acct.auth, query: { list_id: res.json.list_id } });
    expect(members.body.total).toBe(3);
    const updated = (await t.api.get('/v1/contacts', { auth: acct.auth, query: { number: '0412500003' } })).body.results[0];
    // Only the columns in the file change: last_name stays.
    expect(updated).toMatchObject({ first_name: 'New', company: 'Updated Co', last_name: 'Kept' });
    const bob = (await t.api.get('/v1/contacts', { auth: acct.auth, query: { number: '0412500002' } })).body.results[0];
    expect(bob).toMatchObject({ first_name: 'Bob, Jr', company: '' });

    const again = await runCli('contacts:import', '--account', String(acct.accountId), '--list', 'Imported', '--file', file('a.csv', csv));
    expect(again.json).toMatchObject({ added: 0, updated: 3, added_to_list: 0, list_id: res.json.list_id });
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
  });

  it('fails clearly for a missing file', async () => {
    const acct = await createAccount(t.app);
    const res = await runCli('contacts:import', '--account', String(acct.accountId), '--list', 'L', '--file', path.join(dir, 'nope.csv'));
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('cannot read --file');
  });
});
