import { DataSource } from 'typeorm';
import { IMPORT_CHUNK_ROWS } from '../../src/contact-imports/contact-import-runner';
import { SmscSimulator } from '../../src/smsc-sim/smsc-simulator';
import { startSmsc } from '../support/delivery';
import { RunningService, startWorker } from '../support/processes';
import { createAccount, startTestApp, TestApp } from '../support/test-app';
import { until } from '../support/wait';

jest.setTimeout(240_000);

/** A killed worker's import job is locked this long; then the next worker takes it over. */
const LOCK_MS = 2000;
const ROWS = 60_000;

/**
 * A real worker process (`node dist/src/main.js`, APP_ROLE=worker, as operators run it) killed with
 * SIGKILL in the middle of a large import, and a new one started: the import carries on from the last
 * committed chunk, writes no row twice and its report counts every line once.
 */
describe('A worker killed mid-import and a new one started', () => {
  let smsc: SmscSimulator;
  let port: number;
  let api: TestApp;
  let db: DataSource;
  const workers: RunningService[] = [];

  beforeAll(async () => {
    ({ smsc, port } = await startSmsc());
    // The API only stores the import and enqueues it: every chunk is written by the worker processes.
    api = await startTestApp({ appRole: 'api' });
    db = api.app.get(DataSource);
  });
  afterAll(async () => {
    for (const w of workers) await w.process.stop('SIGKILL');
    await api?.close();
    await smsc?.stop();
  });

  const worker = async (name: string) => {
    const w = await startWorker(name, port, { CONTACT_IMPORT_LOCK_MS: String(LOCK_MS), SWEEP_INTERVAL_MS: '200' });
    workers.push(w);
    return w;
  };

  it('resumes where it stopped: no duplicated contacts, members or consent records, and the report counts every line once', async () => {
    const acct = await createAccount(api.app);
    const list = (await api.api.post('/v1/lists', { auth: acct.auth, body: { name: 'Everyone' } })).body.list_id;
    const numberAt = (i: number) => `04${String(60_000_000 + i).slice(-8)}`;
    // Already contacts: 10 early in the file (written before the kill) and 10 late (after it).
    const existing = [...Array.from({ length: 10 }, (_, i) => i * 7), ...Array.from({ length: 10 }, (_, i) => ROWS - 1 - i * 7)];
    for (const i of existing) await api.api.post('/v1/contacts', { auth: acct.auth, body: { number: numberAt(i), first_name: 'Had' } });
    // Opted out: one in the first chunk, one in the last.
    const optedOut = [3, ROWS - 3];
    for (const i of optedOut) await api.api.post('/v1/unsubscribes', { auth: acct.auth, body: { number: numberAt(i) } });

    const lines = ['Mobile,Name'];
    for (let i = 0; i < ROWS; i++) lines.push(`${numberAt(i)},Person ${i}`);
    lines.splice(101, 0, 'not-a-number,Bad'); // line 102 of the file
    lines.push(`${numberAt(5)},Again`); // a repeat of line 7, as the file's last line
    const created = await api.api.post('/v1/contact-imports', {
      auth: acct.auth,
      body: { csv: lines.join('\n'), mapping: { number: 'Mobile', first_name: 'Name' }, list_id: list, consent_source: 'Shop sign-up sheet' },
    });
    expect(created.status).toBe(200);
    const importId = created.body.import_id as number;
    const progress = async () => (await db.query(`SELECT state, processed_rows, attempts FROM contact_imports WHERE id = $1`, [importId]))[0];

    const first = await worker('import-worker-1');
    await until(async () => (await progress()).processed_rows >= 2 * IMPORT_CHUNK_ROWS, 'two chunks written by the first worker', 60_000, 20);
    expect(await first.process.stop('SIGKILL')).toEqual({ code: null, signal: 'SIGKILL' });
    const atKill = await progress();
    // Killed in the middle: some chunks committed, the rest not; only whole chunks count.
    expect(atKill.state).toBe('running');
    expect(atKill.processed_rows % IMPORT_CHUNK_ROWS).toBe(0);
    expect(atKill.processed_rows).toBeLessThan(ROWS);
    const [{ n: contactsAtKill }] = await db.query(`SELECT count(*)::int AS n FROM contacts WHERE account_id = $1`, [acct.accountId]);
    // Every committed chunk's new contacts, and not one row of an uncommitted chunk.
    const existingBeforeKill = existing.filter((i) => i < atKill.processed_rows).length;
    expect(contactsAtKill).toBe(existing.length + atKill.processed_rows - existingBeforeKill);

    await worker('import-worker-2');
    let report: any;
    await until(
      async () => ['complete', 'failed'].includes((report = (await api.api.get('/v1/contact-imports', { auth: acct.auth, query: { import_id: importId } })).body).state),
      'the import to finish on the second worker',
      120_000,
    );
    expect(report).toMatchObject({
      state: 'complete',
      attempts: 2,
      total_rows: ROWS + 2,
      valid_rows: ROWS,
      processed_rows: ROWS,
      // Had the second worker started again from the top, the first chunks' contacts would count as updated.
      added: ROWS - existing.length,
      updated: existing.length,
      added_to_list: ROWS - optedOut.length,
      skipped_invalid: 1,
      skipped_duplicates: 1,
      opted_out_count: 2,
      invalid: [{ line: 102, reason: 'Invalid phone number format' }],
      duplicates: [{ line: ROWS + 3, number: `61${numberAt(5).slice(1)}`, first_line: 7 }],
      failure: null,
    });
    expect(report.opted_out.map((o: { number: string }) => o.number).sort()).toEqual(optedOut.map((i) => `61${numberAt(i).slice(1)}`).sort());

    const [contacts] = await db.query(`SELECT count(*)::int AS n, count(DISTINCT number)::int AS distinct_numbers FROM contacts WHERE account_id = $1`, [acct.accountId]);
    expect(contacts).toEqual({ n: ROWS, distinct_numbers: ROWS });
    const [members] = await db.query(`SELECT count(*)::int AS n, count(DISTINCT contact_id)::int AS distinct_contacts FROM list_members WHERE list_id = $1`, [list]);
    expect(members).toEqual({ n: ROWS - optedOut.length, distinct_contacts: ROWS - optedOut.length });
    const [consent] = await db.query(
      `SELECT count(*)::int AS n, count(DISTINCT number)::int AS distinct_numbers FROM consent_records WHERE account_id = $1 AND change = 'opt_in' AND source = 'import'`,
      [acct.accountId],
    );
    expect(consent).toEqual({ n: ROWS - optedOut.length, distinct_numbers: ROWS - optedOut.length });
    const [{ csv }] = await db.query(`SELECT csv FROM contact_imports WHERE id = $1`, [importId]);
    expect(csv).toBe('');
  });
});
