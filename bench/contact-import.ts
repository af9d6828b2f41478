import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { benchAccount, fmt, ms, until } from './support';

/**
 * The import job end to end: POST /v1/contact-imports with an N-row CSV into a new list, then polls
 * GET /v1/contact-imports until the worker (in this process, APP_ROLE=all) has finished; prints the wall
 * time from the request to `complete` and rows/s. A second import of the same file times the all-updates case,
 * and a third, into a fresh account with a `consent_source`, the new-contacts case with an opt-in consent
 * record written for every row.
 */
export async function benchImportJob(app: NestFastifyApplication, count: number): Promise<void> {
  const first = await benchAccount(app);
  let auth = first.auth;
  const lines = ['Mobile,Given name,Family name,Company,Tag'];
  for (let i = 0; i < count; i++) lines.push(`04${String(20_000_000 + i * 7).slice(-8)},Name${i},Surname${i % 1000},Company ${i % 50},tag${i % 10}`);
  const csv = lines.join('\n');
  const request = async (method: 'GET' | 'POST', url: string, payload?: object) => {
    const res = await app.inject({ method, url, payload, headers: { authorization: auth, 'content-type': 'application/json' } });
    if (res.statusCode !== 200) throw new Error(`${method} ${url} -> ${res.statusCode} ${res.body}`);
    return res.json();
  };
  const list = await request('POST', '/v1/lists', { name: 'Imported by job' });
  const mapping = { number: 'Mobile', first_name: 'Given name', last_name: 'Family name', company: 'Company', field_1: 'Tag' };
  console.log(`\nimport as a job (POST /v1/contact-imports, ${(Buffer.byteLength(csv) / 1024 / 1024).toFixed(1)} MB of CSV, poll until complete):`);
  const runs = [
    { label: 'new contacts', consent: false },
    { label: 'same file again (all updates)', consent: false },
    { label: 'new contacts + consent_source', consent: true },
  ];
  for (const { label, consent } of runs) {
    let listId = list.list_id;
    if (consent) {
      auth = (await benchAccount(app)).auth;
      listId = (await request('POST', '/v1/lists', { name: 'Imported with consent' })).list_id;
    }
    const start = process.hrtime.bigint();
    const created = await request('POST', '/v1/contact-imports', { csv, mapping, list_id: listId, ...(consent ? { consent_source: 'Bench sign-up form' } : {}) });
    const acceptedMs = ms(start);
    let report: any;
    await until(
      async () => (report = await request('GET', `/v1/contact-imports?import_id=${created.import_id}`)).state === 'complete' || report.state === 'failed',
      'the import',
      600_000,
      100,
    );
    const seconds = ms(start) / 1000;
    if (report.state !== 'complete') throw new Error(`import failed: ${report.failure}`);
    if (consent && (await request('GET', `/v1/consent?number=04${String(20_000_000).slice(-8)}`)).total !== 1) throw new Error('no consent record written');
    console.log(
      `  ${label.padEnd(30)} ${count} rows in ${fmt(seconds)} s (${Math.round(count / seconds)} rows/s; accepted in ${fmt(acceptedMs)} ms) -> added ${report.added}, updated ${report.updated}, in list ${report.added_to_list}`,
    );
  }
}
