import type { AddressInfo } from 'node:net';
import { DataSource } from 'typeorm';
import { CodeSource } from '../src/links/link-codes';
import { ContactImportsService } from '../src/contact-imports/contact-imports.service';
import { argValue, benchAccount, fmt, ms, startBenchApp, stats } from './support';
import { reportResult } from './bench-result';
import { uuid7 } from '../src/common/ids/uuid7';
import { copyField, copyRows } from '../src/database/copy-rows';
import { UnitOfWork } from '../src/database/unit-of-work';
import { MESSAGE_COPY_COLUMNS } from '../src/messaging/messages.repository';

/**
 * npm run bench:send [-- --runs N] [-- --compare-shorten]   (N defaults to 5, or 15 with --compare-shorten)
 * Posts a 10000-message batch (distinct numbers, GSM and Unicode texts, custom_refs) over real HTTP N
 * times and prints p50/max latency (from the request's start to the answer's last byte) and peak memory
 * growth per request; after each POST it times the floors, the same 10000 rows inserted by one
 * INSERT … SELECT FROM unnest(…) into the same table, and the same rows by one COPY (as the product
 * stores them, the least work); then times a
 * list-send to a 50000-contact list and its floors: the last list send's rendered rows (its messages and
 * their opt-out links, read back) inserted again set-based in one transaction, with fresh ids and codes,
 * the messages by INSERT … SELECT FROM unnest, and again by COPY.
 * --compare-shorten instead times, in the same sitting and interleaved run by run, today's batch, the
 * same batch with a URL in every message, and that batch with shorten_urls (10000 short links made
 * and stored), and prints the three p50s and their ratios.
 */
async function main() {
  const compare = process.argv.includes('--compare-shorten');
  // The comparison's three p50s are within ~10% of each other, and one run's noise on this machine is as much: more runs.
  const runs = argValue('runs', compare ? 15 : 5);
  // An API instance (APP_ROLE=api): acceptance is measured without dispatch workers competing for the cores.
  const bench = await startBenchApp({ inflightLimit: 5, appRole: 'api' });
  try {
    await bench.app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(bench.app.getHttpServer().address() as AddressInfo).port}`;
    const { accountId, auth } = await benchAccount(bench.app, { credits: 10_000_000, senders: ['BenchBrand', '61400000001'] });

    const batch = (run: number, variant: Variant = 'today') => ({
      enable_unicode: true,
      ...(variant === 'shortened' ? { shorten_urls: true } : {}),
      messages: Array.from({ length: 10_000 }, (_, i) => ({
        to: `04${String(10_000_000 + run * 10_000 + i).slice(-8)}`,
        message:
          (i % 4 === 0 ? `Kia ora ${i} 👋 — your order is ready` : `Hello ${i}, your appointment is confirmed for tomorrow at 10am. Reply STOP to opt out.`) +
          (variant === 'today' ? '' : ` https://shop.example/orders/${run}-${i}?src=sms`),
        sender: i % 2 ? 'BenchBrand' : '61400000001',
        custom_ref: `bench-${run}-${i}`,
      })),
    });
    if (compare) {
      await compareShortening(base, auth, runs, batch);
      return;
    }

    // Each run times the POST, then its two floors: interleaved, so a machine that slows down or speeds up
    // during the bench (and a table that grows) weighs on all three alike.
    const ds = bench.app.get(DataSource);
    const uow = bench.app.get(UnitOfWork);
    const newSend = async (): Promise<number> => (await ds.query(`INSERT INTO sends (account_id, kind) VALUES ($1, 'batch') RETURNING id`, [accountId]))[0].id;
    const latencies: number[] = [];
    const growth: number[] = [];
    const floors: number[] = [];
    const copyFloors: number[] = [];
    for (let run = 0; run < runs; run++) {
      const body = JSON.stringify(batch(run));
      global.gc?.();
      const rssBefore = process.memoryUsage().rss;
      let peak = rssBefore;
      const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
      const res = await postJson<{ results: Array<{ status: string }> }>(`${base}/v1/messages`, auth, body);
      latencies.push(res.ms);
      clearInterval(sampler);
      growth.push((peak - rssBefore) / 1024 / 1024);
      if (res.status !== 200 || res.json.results.some((r) => r.status !== 'success')) throw new Error(`run ${run}: ${res.status}`);

      // The floor: the same rows, one INSERT … SELECT FROM unnest, same table, indexes and kind of id (the
      // send's watermark is left unset, so nothing dispatches them).
      let rows = batch(100 + run).messages;
      let sendId = await newSend();
      let start = process.hrtime.bigint();
      await ds.query(
        `INSERT INTO messages (id, account_id, send_id, to_number, sender, sender_type, body, custom_ref, status, encoding, parts, cost, is_test, scheduled_for, dispatch_at)
         SELECT t.id, $1, $2, t.to_number, t.sender, 'alpha', t.body, t.custom_ref, 'pending', 'gsm7', 1, 100, false, NULL, now()
           FROM unnest($3::uuid[], $4::text[], $5::text[], $6::text[], $7::text[]) AS t(id, to_number, sender, body, custom_ref)`,
        [accountId, sendId, rows.map(() => uuid7()), rows.map((r) => `61${r.to.slice(1)}`), rows.map((r) => r.sender), rows.map((r) => r.message), rows.map((r) => r.custom_ref)],
      );
      floors.push(ms(start));

      // The same rows the way the product now stores them, by one COPY: the least work for them.
      rows = batch(200 + run).messages;
      sendId = await newSend();
      start = process.hrtime.bigint();
      const now = new Date().toISOString();
      await uow.run((tx) =>
        copyRows(tx, 'messages', MESSAGE_COPY_COLUMNS, rows.length, (i) => {
          const r = rows[i];
          return [
            uuid7(),
            String(accountId),
            String(sendId),
            `61${r.to.slice(1)}`,
            copyField(r.sender),
            'alpha',
            copyField(r.message),
            copyField(r.custom_ref),
            'pending',
            'gsm7',
            '1',
            '100',
            'f',
            '\\N',
            now,
          ];
        }),
      );
      copyFloors.push(ms(start));
    }
    const l = stats(latencies);
    console.log(`POST /v1/messages, 10000 messages over HTTP, ${runs} runs: p50 ${fmt(l.p50)} ms, max ${fmt(l.max)} ms, min ${fmt(l.min)} ms`);
    console.log(`  peak RSS growth during a request: max ${fmt(Math.max(...growth))} MB (p50 ${fmt(stats(growth).p50)} MB)`);
    const f = stats(floors);
    console.log(`floor (each run after its POST): 10000 rows by one INSERT … SELECT FROM unnest: p50 ${fmt(f.p50)} ms, max ${fmt(f.max)} ms`);
    console.log(`  API p50 / floor p50 = ${fmt(l.p50 / f.p50)}×`);
    const cf = stats(copyFloors);
    console.log(`floor: the same 10000 rows by one COPY (how the product stores them): p50 ${fmt(cf.p50)} ms, max ${fmt(cf.max)} ms`);
    console.log(`  API p50 / COPY floor p50 = ${fmt(l.p50 / cf.p50)}×`);
    reportResult({ post: l.p50 / f.p50, postCopy: l.p50 / cf.p50 });

    // List send to 50000 contacts.
    const csv = ['number,first_name', ...Array.from({ length: 50_000 }, (_, i) => `04${String(50_000_000 + i).slice(-8)},Name${i}`)].join('\n');
    const imported = await bench.app.get(ContactImportsService).importNow(accountId, { csv, listName: 'Campaign 50k', origin: 'cli' });
    const listTimes: number[] = [];
    for (let run = 0; run < 3; run++) {
      const res = await postJson<{ total_recipients: number }>(
        `${base}/v1/list-send`,
        auth,
        JSON.stringify({ list_id: imported.list_id, sender: '61400000001', message: 'Hi {first_name}, 20% off this week only.{optout}', custom_ref: `list-${run}` }),
      );
      listTimes.push(res.ms);
      if (res.status !== 200 || res.json.total_recipients !== 50_000) throw new Error(`list send ${run}: ${res.status} ${JSON.stringify(res.json)}`);
    }
    const ls = stats(listTimes);
    console.log(`POST /v1/list-send to a 50000-contact list, 3 runs: p50 ${fmt(ls.p50)} ms, max ${fmt(ls.max)} ms`);

    const [{ id: lastListSend }] = await ds.query(`SELECT id FROM sends WHERE account_id = $1 AND kind = 'list' ORDER BY id DESC LIMIT 1`, [accountId]);
    const listFloors: number[] = [];
    const listCopyFloors: number[] = [];
    let described = '';
    for (let run = 0; run < 3; run++) {
      const floor = await listSendFloor(ds, uow, accountId, Number(lastListSend), 'insert');
      listFloors.push(floor.ms);
      listCopyFloors.push((await listSendFloor(ds, uow, accountId, Number(lastListSend), 'copy')).ms);
      described = `${floor.messages} messages and ${floor.links} links`;
    }
    const lf = stats(listFloors);
    console.log(`floor: the same rendered rows (${described}) by set-based INSERT … SELECT FROM unnest in one transaction, 3 runs: p50 ${fmt(lf.p50)} ms, max ${fmt(lf.max)} ms`);
    console.log(`  list-send p50 / floor p50 = ${fmt(ls.p50 / lf.p50)}×`);
    const lcf = stats(listCopyFloors);
    console.log(`floor: the same rendered rows, the messages by one COPY (how the product stores them), 3 runs: p50 ${fmt(lcf.p50)} ms, max ${fmt(lcf.max)} ms`);
    console.log(`  list-send p50 / COPY floor p50 = ${fmt(ls.p50 / lcf.p50)}×`);
    reportResult({ listSend: ls.p50 / lf.p50, listSendCopy: ls.p50 / lcf.p50 });
  } finally {
    await bench.drop();
  }
}

/**
 * The list-send floor: a list send's rendered rows read back (before timing) and stored again the least
 * way: a new send row, its links in one INSERT and its messages in one INSERT … SELECT FROM unnest, in one
 * transaction, same tables and indexes, fresh message ids (uuid7) and link codes. The send's watermark is
 * left unset, as in the POST floor, so nothing dispatches them.
 */
async function listSendFloor(ds: DataSource, uow: UnitOfWork, accountId: number, sendId: number, how: 'insert' | 'copy'): Promise<{ ms: number; messages: number; links: number }> {
  const rows: Array<{
    id: string;
    to_number: string;
    sender: string;
    sender_type: string;
    body: string;
    custom_ref: string | null;
    status: string;
    encoding: string;
    parts: number;
    cost: string;
  }> = await ds.query(`SELECT id, to_number, sender, sender_type, body, custom_ref, status, encoding, parts, cost FROM messages WHERE send_id = $1 ORDER BY seq`, [sendId]);
  const links: Array<{ message_id: string; url: string | null }> = await ds.query(`SELECT message_id, url FROM short_links WHERE send_id = $1`, [sendId]);
  const taken = new Set<string>((await ds.query(`SELECT code FROM short_links`)).map((r: { code: string }) => r.code));
  const codes = new CodeSource();
  const newId = new Map(rows.map((r) => [r.id, uuid7()]));
  const [{ id: floorSend }] = await ds.query(`INSERT INTO sends (account_id, kind) VALUES ($1, 'batch') RETURNING id`, [accountId]);
  const start = process.hrtime.bigint();
  await uow.run(async (unit) => {
    const tx = unit.manager;
    if (links.length > 0) {
      await tx.query(
        `INSERT INTO short_links (code, account_id, send_id, message_id, kind, url)
         SELECT d.code, $1, $2, d.message_id, CASE WHEN d.url IS NULL THEN 'optout' ELSE 'url' END, d.url
           FROM unnest(string_to_array($3, ','), string_to_array($4, ',')::uuid[], string_to_array($5, E'\\n', '')) AS d(code, message_id, url)`,
        [accountId, floorSend, links.map(() => codes.fresh(taken)).join(','), links.map((l) => newId.get(l.message_id)).join(','), links.map((l) => l.url ?? '').join('\n')],
      );
    }
    if (how === 'copy') {
      const now = new Date().toISOString();
      await copyRows(unit, 'messages', MESSAGE_COPY_COLUMNS, rows.length, (i) => {
        const r = rows[i];
        return [
          newId.get(r.id)!,
          String(accountId),
          String(floorSend),
          r.to_number,
          copyField(r.sender),
          r.sender_type,
          copyField(r.body),
          copyField(r.custom_ref),
          r.status,
          r.encoding,
          String(r.parts),
          r.cost,
          'f',
          '\\N',
          now,
        ];
      });
      return;
    }
    const col = <T>(pick: (r: (typeof rows)[number]) => T) => rows.map(pick);
    await tx.query(
      `INSERT INTO messages (id, account_id, send_id, to_number, sender, sender_type, body, custom_ref, status, encoding, parts, cost, is_test, scheduled_for, dispatch_at)
       SELECT t.id, $1, $2, t.to_number, t.sender, t.sender_type, t.body, t.custom_ref, t.status, t.encoding, t.parts, t.cost, false, NULL, now()
         FROM unnest($3::uuid[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[], $11::smallint[], $12::bigint[])
              AS t(id, to_number, sender, sender_type, body, custom_ref, status, encoding, parts, cost)`,
      [
        accountId,
        floorSend,
        col((r) => newId.get(r.id)),
        col((r) => r.to_number),
        col((r) => r.sender),
        col((r) => r.sender_type),
        col((r) => r.body),
        col((r) => r.custom_ref),
        col((r) => r.status),
        col((r) => r.encoding),
        col((r) => r.parts),
        col((r) => r.cost),
      ],
    );
  });
  return { ms: ms(start), messages: rows.length, links: links.length };
}

type Variant = 'today' | 'with URLs' | 'shortened';

/**
 * The three batches interleaved run by run, in an order that rotates each run (none always follows the
 * others' writes), so load on the machine falls on all of them alike.
 */
async function compareShortening(base: string, auth: string, runs: number, batch: (run: number, variant: Variant) => unknown): Promise<void> {
  const variants: Variant[] = ['today', 'with URLs', 'shortened'];
  const times = new Map<Variant, number[]>(variants.map((v) => [v, []]));
  for (let run = 0; run < runs; run++) {
    for (let k = 0; k < variants.length; k++) {
      const variant = variants[(run + k) % variants.length];
      const body = JSON.stringify(batch(1000 + run * 3 + k, variant));
      const res = await postJson<{ results: Array<{ status: string; message: string }> }>(`${base}/v1/messages`, auth, body);
      times.get(variant)!.push(res.ms);
      if (res.status !== 200 || res.json.results.some((r) => r.status !== 'success')) throw new Error(`run ${run} ${variant}: ${res.status}`);
      if (variant === 'shortened' && !res.json.results.every((r) => /\/[0-9A-Za-z]{7}$/.test(r.message))) throw new Error('a message was not shortened');
    }
  }
  const p50 = (v: Variant) => stats(times.get(v)!).p50;
  for (const v of variants) {
    const s = stats(times.get(v)!);
    console.log(
      `POST /v1/messages, 10000 messages, ${v}${v === 'shortened' ? ' (shorten_urls: true)' : ''}, ${runs} runs: p50 ${fmt(s.p50)} ms, min ${fmt(s.min)} ms, max ${fmt(s.max)} ms`,
    );
  }
  console.log(`  shortened / today = ${fmt(p50('shortened') / p50('today'))}×; shortened / with URLs = ${fmt(p50('shortened') / p50('with URLs'))}×`);
}

/**
 * POSTs a JSON body and times it from the request's start to the answer's last byte, as an HTTP client
 * elsewhere would see it; the answer (about 3 MB for 10000 messages) is parsed after the clock stops, since
 * this client shares the API's process and a real one parses on its own CPU.
 */
async function postJson<T>(url: string, auth: string, body: string): Promise<{ ms: number; status: number; json: T }> {
  const start = process.hrtime.bigint();
  const res = await fetch(url, { method: 'POST', headers: { authorization: auth, 'content-type': 'application/json' }, body });
  const bytes = Buffer.from(await res.arrayBuffer());
  const elapsed = ms(start);
  return { ms: elapsed, status: res.status, json: JSON.parse(bytes.toString('utf8')) as T };
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
