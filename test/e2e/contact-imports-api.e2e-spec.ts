import { DataSource } from 'typeorm';
import { IMPORT_CHUNK_ROWS } from '../../src/contact-imports/contact-import-runner';
import { createAccount, startTestApp, TestAccount, TestApp } from '../support/test-app';
import { until } from '../support/wait';

jest.setTimeout(120_000);

/** POST /v1/contact-imports and GET its state: the import runs as a job in the worker, and its report says what became of every line. */
describe('Contact imports (API)', () => {
  let t: TestApp;
  let db: DataSource;

  beforeAll(async () => {
    t = await startTestApp();
    db = t.app.get(DataSource);
  });
  afterAll(() => t.close());

  const post = (acct: TestAccount, body: unknown) => t.api.post('/v1/contact-imports', { auth: acct.auth, body });
  const state = async (acct: TestAccount, importId: number) => (await t.api.get('/v1/contact-imports', { auth: acct.auth, query: { import_id: importId } })).body;
  async function finished(acct: TestAccount, importId: number, timeoutMs = 30_000) {
    let last: any;
    await until(async () => ['complete', 'failed'].includes((last = await state(acct, importId)).state), `import ${importId} to finish`, timeoutMs);
    return last;
  }

  it('imports with a column mapping into a list: normalised numbers, merged duplicates, updated contacts, opted-out numbers kept out of the list, a line-by-line report', async () => {
    const acct = await createAccount(t.app);
    await t.api.post('/v1/contacts', { auth: acct.auth, body: { number: '0412700003', first_name: 'Old', last_name: 'Kept' } });
    await t.api.post('/v1/unsubscribes', { auth: acct.auth, body: { number: '0412700004' } });
    const list = (await t.api.post('/v1/lists', { auth: acct.auth, body: { name: 'Customers' } })).body.list_id;
    const csv = [
      'Mobile,Given name,Ignored,Firm',
      '0412 700 001,Ann,x,Acme',
      '+61412700002,"Bob, Jr",y,',
      '0412700003,New,z,Updated Co',
      '0412700004,Opted,z,',
      'not-a-number,Bad,z,',
      '61412700001,Again,z,',
      ',Nobody,z,',
    ].join('\r\n');
    const created = await post(acct, { csv, mapping: { number: 'mobile', first_name: 'Given name', company: 'Firm' }, list_id: list });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ status: 'complete', import_id: expect.any(Number), state: expect.stringMatching(/^(queued|running|complete)$/), list_id: list });

    const report = await finished(acct, created.body.import_id);
    expect(report).toEqual({
      status: 'complete',
      import_id: created.body.import_id,
      state: 'complete',
      list_id: list,
      total_rows: 7,
      valid_rows: 4,
      processed_rows: 4,
      added: 3,
      updated: 1,
      added_to_list: 3,
      skipped_invalid: 2,
      skipped_duplicates: 1,
      opted_out_count: 1,
      invalid: [
        { line: 6, reason: 'Invalid phone number format' },
        { line: 8, reason: 'number is required' },
      ],
      duplicates: [{ line: 7, number: '61412700001', first_line: 2 }],
      opted_out: [{ line: 5, number: '61412700004' }],
      failure: null,
      attempts: 1,
      consent_source: null,
      created_at: expect.any(String),
      finished_at: expect.any(String),
    });
    const members = (await t.api.get('/v1/list-contacts', { auth: acct.auth, query: { list_id: list } })).body;
    expect(members.results.map((c: { number: string }) => c.number).sort()).toEqual(['61412700001', '61412700002', '61412700003']);
    const updated = (await t.api.get('/v1/contacts', { auth: acct.auth, query: { number: '0412700003' } })).body.results[0];
    // Only mapped columns change: last_name stays.
    expect(updated).toMatchObject({ first_name: 'New', company: 'Updated Co', last_name: 'Kept' });
    expect((await t.api.get('/v1/contacts', { auth: acct.auth, query: { number: '0412700002' } })).body.results[0]).toMatchObject({ first_name: 'Bob, Jr' });
    expect((await t.api.get('/v1/contacts', { auth: acct.auth, query: { number: '0412700004' } })).body.total).toBe(1);
  });

  it('takes the header names as the fields when no mapping is given, and imports without a list', async () => {
    const acct = await createAccount(t.app);
    const created = await post(acct, { csv: 'number,first_name\n0412700101,Cat\n' });
    const report = await finished(acct, created.body.import_id);
    expect(report).toMatchObject({ state: 'complete', list_id: null, added: 1, added_to_list: 0 });
    expect((await t.api.get('/v1/contacts', { auth: acct.auth, query: { number: '0412700101' } })).body.results[0].first_name).toBe('Cat');
  });

  it.each([
    ['no csv', {}, 'csv is required'],
    ['an empty csv', { csv: '' }, 'csv is required'],
    ['a csv that is not text', { csv: ['a'] }, 'csv must be a string'],
    ['a mapping that is not an object', { csv: 'number\n0412700201\n', mapping: 'number' }, 'mapping must be an object'],
    ['a mapping without number', { csv: 'Mobile\n0412700201\n', mapping: { first_name: 'Mobile' } }, 'mapping.number is required'],
    [
      'a mapping naming an unknown field',
      { csv: 'Mobile\n0412700201\n', mapping: { number: 'Mobile', nickname: 'Mobile' } },
      'mapping names an unknown contact field: nickname; fields: number, first_name, last_name, company, other, field_1, field_2, field_3, field_4, field_5',
    ],
    ['a mapping naming a missing column', { csv: 'Mobile\n0412700201\n', mapping: { number: 'Phone' } }, 'mapping.number names a column the CSV does not have: Phone'],
    ['a mapping value that is not text', { csv: 'Mobile\n0412700201\n', mapping: { number: 5 } }, 'mapping.number must be the header of a CSV column'],
    [
      'unknown headers without a mapping',
      { csv: 'Mobile\n0412700201\n' },
      'Unknown column(s) mobile; allowed: number, first_name, last_name, company, other, field_1, field_2, field_3, field_4, field_5',
    ],
    ['no number column without a mapping', { csv: 'first_name\nAnn\n' }, 'The header row must name a number column'],
    ['a header that cannot be read', { csv: '"number\n' }, 'CSV could not be read: Quote Not Closed: the parsing is finished with an opening quote at line 1'],
    ['a bad list_id', { csv: 'number\n0412700201\n', list_id: 'x' }, 'list_id must be a positive integer'],
  ])('refuses %s with 400 and stores nothing', async (_case, body, error) => {
    const acct = await createAccount(t.app);
    const res = await post(acct, body);
    expect([res.status, res.body]).toEqual([400, { error }]);
    expect((await db.query(`SELECT count(*)::int AS n FROM contact_imports WHERE account_id = $1`, [acct.accountId]))[0].n).toBe(0);
  });

  it("answers 404 for another account's list and import, and 400 without import_id", async () => {
    const [a, b] = [await createAccount(t.app), await createAccount(t.app)];
    const bList = (await t.api.post('/v1/lists', { auth: b.auth, body: { name: 'Theirs' } })).body.list_id;
    expect((await post(a, { csv: 'number\n0412700301\n', list_id: bList })).body).toEqual({ error: 'List not found' });
    const bImport = (await post(b, { csv: 'number\n0412700301\n' })).body.import_id;
    const other = await t.api.get('/v1/contact-imports', { auth: a.auth, query: { import_id: bImport } });
    expect([other.status, other.body]).toEqual([404, { error: 'Contact import not found' }]);
    const missing = await t.api.get('/v1/contact-imports', { auth: a.auth });
    expect([missing.status, missing.body]).toEqual([400, { error: 'import_id is required' }]);
    const unauthenticated = await t.api.get('/v1/contact-imports', { query: { import_id: bImport } });
    expect(unauthenticated.status).toBe(401);
  });

  it('resumes after a chunk fails mid-import: the committed chunks are not written again, nothing is counted twice', async () => {
    const acct = await createAccount(t.app);
    const list = (await t.api.post('/v1/lists', { auth: acct.auth, body: { name: 'Big' } })).body.list_id;
    const rows = IMPORT_CHUNK_ROWS * 2 + 100;
    const numbers = Array.from({ length: rows }, (_, i) => `614${String(30_000_000 + i).padStart(8, '0')}`);
    const poison = numbers[IMPORT_CHUNK_ROWS + 10];
    // The second chunk fails while the trigger is there (as a worker dying mid-chunk would lose it); the sequence counts the failures.
    await db.query(`CREATE SEQUENCE import_failures_${acct.accountId}`);
    await db.query(`CREATE FUNCTION fail_import_${acct.accountId}() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN PERFORM nextval('import_failures_${acct.accountId}'); RAISE EXCEPTION 'worker died'; END $$`);
    await db.query(
      `CREATE TRIGGER fail_import_${acct.accountId} BEFORE INSERT ON contacts FOR EACH ROW WHEN (NEW.account_id = ${acct.accountId} AND NEW.number = '${poison}') EXECUTE FUNCTION fail_import_${acct.accountId}()`,
    );
    try {
      const created = await post(acct, { csv: `number,first_name\n${numbers.map((n, i) => `${n},Person ${i}`).join('\n')}\n`, list_id: list });
      const importId = created.body.import_id;
      await until(
        async () =>
          Number((await db.query(`SELECT last_value FROM import_failures_${acct.accountId}`))[0].last_value) >= 2 &&
          (await db.query(`SELECT is_called FROM import_failures_${acct.accountId}`))[0].is_called,
        'the second chunk to fail twice',
        30_000,
      );
      expect(await state(acct, importId)).toMatchObject({ state: 'running', processed_rows: IMPORT_CHUNK_ROWS, added: IMPORT_CHUNK_ROWS, added_to_list: IMPORT_CHUNK_ROWS });
      await db.query(`DROP TRIGGER fail_import_${acct.accountId} ON contacts`);
      const report = await finished(acct, importId, 60_000);
      expect(report).toMatchObject({ state: 'complete', total_rows: rows, processed_rows: rows, added: rows, updated: 0, added_to_list: rows });
      const [{ n }] = await db.query(`SELECT count(*)::int AS n FROM contacts WHERE account_id = $1`, [acct.accountId]);
      expect(n).toBe(rows);
      expect((await t.api.get('/v1/list-contacts', { auth: acct.auth, query: { list_id: list } })).body.total).toBe(rows);
    } finally {
      await db.query(`DROP TRIGGER IF EXISTS fail_import_${acct.accountId} ON contacts`);
      await db.query(`DROP FUNCTION IF EXISTS fail_import_${acct.accountId}()`);
      await db.query(`DROP SEQUENCE IF EXISTS import_failures_${acct.accountId}`);
    }
  });
});
