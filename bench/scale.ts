import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { loadAverages } from './dispatch-measures';
import { CampaignDatabase, CampaignRun, campaignRun } from './scale-campaign';
import { buildHistory, HistoryAccount } from './scale-history';
import { cliRuns, dashboardSession, Figure, figureLine, goal, probe } from './scale-probes';
import { measureMonthDrop } from './scale-retention';
import { startSimulatorProcess } from './simulator-process';
import { ApiKeysService } from '../src/accounts/api-keys.service';
import { argValue, benchAccount, dropBenchDatabase, fmt, openBenchApp } from './support';

/**
 * npm run bench:scale [-- --messages 10000000 --samples 200 --campaign 50000 --rounds 2 --connections 2 --keep]
 * Builds a 13-month history of `--messages` messages over 20 accounts (bench/scale-history.ts) in a database
 * of its own, then measures on it, over real HTTP, the reads people and clients make of history (the biggest
 * account's: the worst case), ledger:verify, the same campaign here and on an empty database (alternated,
 * `--rounds` pairs), and dropping the oldest month. Prints each figure beside its goal, with the load
 * average. The database is dropped afterwards unless `--keep` (then its URL is printed).
 */
const ACCOUNTS = 20;
const DAYS = 395;

async function main() {
  const total = argValue('messages', 10_000_000);
  const samples = argValue('samples', 200);
  const campaign = argValue('campaign', 50_000);
  const rounds = argValue('rounds', 2);
  const keep = process.argv.includes('--keep');
  const root = new URL(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/sms');
  const at = (name: string) => Object.assign(new URL(root.toString()), { pathname: `/${name}` });
  const stamp = `${Date.now().toString(36)}_${randomBytes(2).toString('hex')}`;
  // --reuse NAME: measure on a database an earlier --keep run built (its first 20 accounts), without building.
  const reuse = process.argv.includes('--reuse') ? process.argv[process.argv.indexOf('--reuse') + 1] : null;
  const big = at(reuse ?? `sms_scale_${stamp}`);
  const empty = at(`sms_scale_empty_${stamp}`);
  const log = (line: string) => console.log(line);
  log(`bench:scale: ${total} messages over ${ACCOUNTS} accounts and ${DAYS} days; load average (1, 5, 15 min) ${loadAverages()}`);

  try {
    let { app } = await openBenchApp(big);
    const accounts: Array<HistoryAccount & { auth: string }> = [];
    if (reuse) {
      const rows: Array<{ id: number }> = await app.get(DataSource).query(`SELECT id FROM accounts WHERE name = 'Bench' ORDER BY id LIMIT $1`, [ACCOUNTS]);
      for (const { id } of rows) {
        const key = await app.get(ApiKeysService).issue(id, 'bench:scale');
        accounts.push({ id, sender: '', webhook: false, auth: `Basic ${Buffer.from(`${key.username}:${key.password}`).toString('base64')}` });
      }
    } else {
      for (let i = 1; i <= ACCOUNTS; i++) {
        const sender = `614000000${String(i).padStart(2, '0')}`;
        const { accountId, auth } = await benchAccount(app, { credits: 1_000_000, senders: [sender] });
        accounts.push({ id: accountId, sender, webhook: i === 2 || i === 3, auth });
      }
    }
    const started = Date.now();
    if (!reuse) await buildHistory(accounts, { databaseUrl: big.toString(), total, days: DAYS, connections: argValue('connections', 2), log });
    const seconds = (Date.now() - started) / 1000;
    const ds = app.get(DataSource);
    const sizes = await ds.query(
      `SELECT (SELECT count(*) FROM messages)::bigint AS messages, (SELECT count(*) FROM messages WHERE account_id = $1)::bigint AS biggest,
              pg_size_pretty(pg_database_size(current_database())) AS size`,
      [accounts[0].id],
    );
    log(
      `history built in ${Math.round(seconds)} s: ${sizes[0].messages} messages (the biggest account ${sizes[0].biggest}), database ${sizes[0].size}; load average ${loadAverages()}`,
    );

    await app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`;
    const a1 = accounts[0];
    const api = { authorization: a1.auth };
    const figures: Array<[Figure, string]> = [];
    const record = (f: Figure, g = '') => (figures.push([f, g]), log(figureLine(f, g)));
    const sampleIds: Array<{ id: string; custom_ref: string }> = await ds.query(
      `SELECT id, custom_ref FROM messages WHERE account_id = $1 AND custom_ref LIKE 'order-%' ORDER BY random() LIMIT 500`,
      [a1.id],
    );
    const [{ days }] = await ds.query(
      `SELECT array_agg(DISTINCT to_char(created_at, 'YYYY-MM-DD')) AS days FROM (SELECT created_at FROM messages WHERE account_id = $1 ORDER BY random() LIMIT 200) m`,
      [a1.id],
    );
    // Campaign refs as stored (a day without a campaign of this account, or a day read in another time zone, has none).
    const [{ campaigns }] = await ds.query(
      `SELECT array_agg(DISTINCT custom_ref) AS campaigns FROM (SELECT custom_ref FROM messages WHERE account_id = $1 AND custom_ref LIKE 'sale-%' ORDER BY random() LIMIT 200) m`,
      [a1.id],
    );
    const linked: Array<{ send_id: string; message_id: string }> = await ds.query(`SELECT send_id, message_id FROM short_links WHERE account_id = $1 ORDER BY random() LIMIT 200`, [
      a1.id,
    ]);
    const deep = Math.min(100_000, Math.max(0, Number(sizes[0].biggest) - 100));
    log(`reads of the biggest account's history (${sizes[0].biggest} messages), sequential requests over HTTP:`);
    const first = await probe('GET /v1/messages (first page of 100)', base, api, ['/v1/messages'], samples);
    record(first, goal(first, 50));
    record(await probe(`GET /v1/messages?offset=${deep}`, base, api, [`/v1/messages?offset=${deep}`], Math.max(5, samples / 10)));
    // The same depth by the keyset continuation: the cursor of the row just before it.
    const before = (await (await fetch(`${base}/v1/messages?limit=1&offset=${Math.max(0, deep - 1)}`, { headers: api })).json()) as { next_cursor: string };
    record(await probe(`GET /v1/messages?cursor= (at ${deep})`, base, api, [`/v1/messages?cursor=${before.next_cursor}`], samples));
    record(
      await probe(
        'GET /v1/messages?from=D&to=D (one day)',
        base,
        api,
        (days as string[]).map((d) => `/v1/messages?from=${d}&to=${d}`),
        samples,
      ),
    );
    record(await probe('GET /v1/messages?status=delivered', base, api, ['/v1/messages?status=delivered'], Math.max(3, samples / 50), { warm: 1 }));
    record(await probe('GET /v1/messages?status=failed', base, api, ['/v1/messages?status=failed'], Math.max(3, samples / 50), { warm: 1 }));
    const byId = await probe(
      'GET /v1/messages?message_id=',
      base,
      api,
      sampleIds.map((r) => `/v1/messages?message_id=${r.id}`),
      samples,
    );
    record(byId, goal(byId, 20));
    const byRef = await probe(
      'GET /v1/messages?custom_ref= (one message)',
      base,
      api,
      sampleIds.map((r) => `/v1/messages?custom_ref=${r.custom_ref}`),
      samples,
    );
    record(byRef, goal(byRef, 20));
    const campaignRef = await probe(
      'GET /v1/messages?custom_ref= (a campaign: 100 newest)',
      base,
      api,
      (campaigns as string[]).map((ref) => `/v1/messages?custom_ref=${ref}`),
      samples,
    );
    record(campaignRef, goal(campaignRef, 20));
    record(await probe('GET /v1/inbound (first page)', base, api, ['/v1/inbound'], samples));
    record(await probe('GET /v1/inbound?type=unsubscribe', base, api, ['/v1/inbound?type=unsubscribe'], samples));
    record(
      await probe(
        'GET /v1/link-clicks?send_id=',
        base,
        api,
        linked.map((l) => `/v1/link-clicks?send_id=${l.send_id}`),
        samples,
      ),
    );
    const clicksById = await probe(
      'GET /v1/link-clicks?message_id=',
      base,
      api,
      linked.map((l) => `/v1/link-clicks?message_id=${l.message_id}`),
      samples,
    );
    record(clicksById, goal(clicksById, 20));
    const page = await probe('dashboard GET /messages (signed in)', base, await dashboardSession(app, base, a1.id), ['/messages'], samples);
    record(page, goal(page, 50));
    log(`  load average ${loadAverages()}`);

    const quiet = await benchAccount(app, { credits: 1, senders: ['Quiet'] });
    await app.close();
    record(await cliRuns('ledger:verify (an account with no history)', big.toString(), ['ledger:verify', '--account', String(quiet.accountId)], 3, 'the CLI start-up'));
    record(await cliRuns('ledger:verify --account (the biggest)', big.toString(), ['ledger:verify', '--account', String(a1.id)], 2));
    record(await cliRuns('ledger:verify (every account)', big.toString(), ['ledger:verify'], 1));
    log(`  load average ${loadAverages()}`);

    const sim = await startSimulatorProcess(1000);
    const runs: CampaignRun[] = [];
    try {
      const dbs: CampaignDatabase[] = [
        { database: 'big', url: big, auth: a1.auth },
        { database: 'empty', url: empty },
      ];
      for (let r = 0; r < rounds; r++) {
        for (const db of dbs) {
          const run = await campaignRun(db, sim, campaign, 10_000_000 + r * 1_000_000);
          runs.push(run);
          log(
            `  campaign of ${campaign} on the ${db.database.padEnd(5)} database: accepted in ${fmt(run.acceptedS)} s, every receipt stored in ${fmt(run.receiptsS)} s: ${Math.round(run.rate)} msg/s (peer ${Math.round(run.peerRate)} msg/s); per message: WAL ${Math.round(run.perMessage.walBytes)} B (${fmt(run.perMessage.fullPageImages)} full-page images), blocks read ${fmt(run.perMessage.blocksRead)}, in shared buffers ${fmt(run.perMessage.blocksHit)}; load ${loadAverages()}`,
          );
        }
      }
    } finally {
      sim.process.kill('SIGTERM');
    }
    const mean = (d: 'big' | 'empty') => runs.filter((r) => r.database === d).reduce((s, r) => s + r.rate, 0) / rounds;
    const ratio = mean('big') / mean('empty');
    log(`  campaign rate on the big database ÷ on the empty one: ${fmt(ratio)} (goal ≥ 0.90: ${ratio >= 0.9 ? 'met' : 'MISSED'})`);

    ({ app } = await openBenchApp(big));
    try {
      log(`  ${await measureMonthDrop(app, a1.auth)}`);
    } finally {
      await app.close();
    }
    log(`load average (1, 5, 15 min) at the end: ${loadAverages()}`);
  } finally {
    await dropBenchDatabase(empty);
    if (keep || reuse) log(`kept: ${big.toString()} (measure it again with --reuse ${big.pathname.slice(1)})`);
    else await dropBenchDatabase(big);
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
