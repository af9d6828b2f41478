import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DataSource } from 'typeorm';
import { ContactImportsService } from '../src/contact-imports/contact-imports.service';
import { benchImportJob } from './contact-import';
import { benchContactSearch } from './contact-search';
import { argValue, benchAccount, fmt, ms, startBenchApp, stats } from './support';

/**
 * npm run bench:contacts [-- --contacts N]
 * Imports N (default 100000) contacts through the import job (POST /v1/contact-imports, run by the
 * worker; `--only-import` stops there), then into a list through the operator CLI, then times the lookups the
 * issue names through the full HTTP stack: GET /v1/contacts?number=, a substring filter, and pages of
 * the N-member list (first and last page), printing p50/max over repeated requests and the query plans.
 * Then the dashboard's contact search with `--search M` (default 1000000) contacts in one account
 * (`--search 0` skips it; `--only-search` skips the rest).
 */
async function main() {
  const count = argValue('contacts', 100_000);
  const searchCount = argValue('search', 1_000_000);
  const bench = await startBenchApp();
  try {
    if (process.argv.includes('--only-search')) {
      await benchContactSearch(bench.app, searchCount);
      return;
    }
    await benchImportJob(bench.app, count);
    if (process.argv.includes('--only-import')) return;
    const { accountId, auth } = await benchAccount(bench.app);
    const file = path.join(tmpdir(), `bench-contacts-${process.pid}.csv`);
    const lines = ['number,first_name,last_name,company,field_1'];
    for (let i = 0; i < count; i++) lines.push(`04${String(10_000_000 + i * 7).slice(-8)},Name${i},Surname${i % 1000},Company ${i % 50},tag${i % 10}`);
    writeFileSync(file, lines.join('\n'));

    let t = process.hrtime.bigint();
    const cli = spawnSync(process.execPath, [path.resolve(__dirname, '../src/cli.js'), 'contacts:import', '--account', String(accountId), '--list', 'Campaign', '--file', file], {
      env: { ...process.env, DATABASE_URL: bench.config.databaseUrl, LOG_LEVEL: 'silent' },
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
    const cliMs = ms(t);
    if (cli.status !== 0) throw new Error(`import failed: ${cli.stderr}`);
    const report = JSON.parse(cli.stdout);
    console.log(
      `import via CLI: ${count} rows in ${fmt(cliMs / 1000)} s wall (process start included) -> added ${report.added}, updated ${report.updated}, in list ${report.added_to_list}`,
    );

    t = process.hrtime.bigint();
    const again = await bench.app.get(ContactImportsService).importNow(accountId, { csv: lines.join('\n'), listName: 'Campaign', origin: 'cli' });
    console.log(`re-import in-process (all updates): ${fmt(ms(t) / 1000)} s -> updated ${again.updated}`);

    const listId = report.list_id as number;
    const get = async (url: string) => {
      const samples: number[] = [];
      let last: { statusCode: number; json: () => any } | undefined;
      for (let i = 0; i < 30; i++) {
        const s = process.hrtime.bigint();
        last = await bench.app.inject({ method: 'GET', url, headers: { authorization: auth } });
        samples.push(ms(s));
      }
      if (last!.statusCode !== 200) throw new Error(`${url} -> ${last!.statusCode}`);
      return { ...stats(samples), body: last!.json() };
    };
    const probe = `04${String(10_000_000 + Math.floor(count / 2) * 7).slice(-8)}`;
    const cases: Array<[string, string]> = [
      ['GET /v1/contacts?number= (exact)', `/v1/contacts?number=${probe}`],
      ['GET /v1/contacts?first_name= (substring, whole account)', `/v1/contacts?first_name=Name4242&limit=10`],
      ['GET /v1/contacts (newest page)', `/v1/contacts?limit=200`],
      ['GET /v1/list-contacts first page of 200', `/v1/list-contacts?list_id=${listId}&limit=200`],
      ['GET /v1/list-contacts last page of 200', `/v1/list-contacts?list_id=${listId}&limit=200&offset=${count - 200}`],
      ['GET /v1/lists (with member counts)', `/v1/lists`],
    ];
    console.log(`\nHTTP through the full stack (app.inject), 30 requests each, ${count} contacts in the account and the list:`);
    for (const [label, url] of cases) {
      const r = await get(url);
      console.log(`  ${label.padEnd(58)} p50 ${fmt(r.p50).padStart(7)} ms   max ${fmt(r.max).padStart(7)} ms   (total ${r.body.total ?? r.body.results?.length})`);
    }

    const ds = bench.app.get(DataSource);
    const plan = async (label: string, query: string, params: unknown[]) => {
      const rows: Array<{ 'QUERY PLAN': string }> = await ds.query(`EXPLAIN ANALYZE ${query}`, params);
      console.log(`\nplan: ${label}\n${rows.map((r) => `  ${r['QUERY PLAN']}`).join('\n')}`);
    };
    await plan('contacts by number', `SELECT id FROM contacts WHERE account_id = $1 AND number = $2`, [accountId, `61${probe.slice(1)}`]);
    await plan('list page', `SELECT c.id FROM list_members m JOIN contacts c ON c.id = m.contact_id WHERE m.list_id = $1 ORDER BY m.contact_id DESC LIMIT 200 OFFSET 0`, [listId]);
    if (searchCount > 0) await benchContactSearch(bench.app, searchCount);
  } finally {
    await bench.drop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
