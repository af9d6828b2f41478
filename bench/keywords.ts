import { DataSource } from 'typeorm';
import { InboundService } from '../src/inbound/inbound.service';
import { KeywordRulesService } from '../src/keywords/keyword-rules.service';
import { SmscSimulator } from '../src/smsc-sim/smsc-simulator';
import { argValue, benchAccount, fmt, ms, startBenchApp, stats } from './support';

/**
 * npm run bench:keywords [-- --accounts A] [-- --replies N] [-- --rate R]
 * 1. Matching at scale: A accounts (default 1000) with 100 rules each in one table (the cap per
 *    account), and the bench account's rules built so a reply is checked against all 100 (99 patterns
 *    that miss, the matching rule last): the p50/p99 of one match (the one SQL statement per reply).
 * 2. Intake: 500 replies stored one after another through InboundService (match, store, write and
 *    debit the auto-reply in one transaction): the p50/p99 of one.
 * 3. Auto-reply latency end to end: N replies (default 500) injected by the SMSC simulator over SMPP
 *    at R per second (default 20), each answered by a rule; the time from the reply leaving the SMSC
 *    to the auto-reply's submit_sm arriving back at it (which includes storing the inbound message), p50/p99/max.
 */
const SMSC = { systemId: 'bench-keywords', password: 'bench123' };
const NUMBER = '61400000001';

async function main() {
  const accounts = argValue('accounts', 1000);
  const replies = argValue('replies', 500);
  const rate = argValue('rate', 20);
  const smsc = new SmscSimulator({ ...SMSC, receiptDelayMs: 200 });
  const port = await smsc.start();
  const bench = await startBenchApp({
    appRole: 'all',
    smppHost: '127.0.0.1',
    smppPort: port,
    smppSystemId: SMSC.systemId,
    smppPassword: SMSC.password,
    smppBinds: 2,
    autoReplyLimit: 100,
  });
  try {
    const db = bench.app.get(DataSource);
    const { accountId } = await benchAccount(bench.app, { credits: replies * 2 + 1000, senders: [NUMBER] });
    await db.query(
      `WITH others AS (INSERT INTO accounts (name, optout_code) SELECT 'Other ' || g, 'bench-kw-' || g FROM generate_series(1, $1::int) g RETURNING id)
       INSERT INTO keyword_rules (account_id, position, match, keyword, reply)
       SELECT o.id, r, CASE r % 3 WHEN 0 THEN 'exact' WHEN 1 THEN 'first_word' ELSE 'pattern' END,
              CASE r % 3 WHEN 2 THEN '*JOIN' || r || '*' ELSE 'JOIN' || r END, 'Thanks'
         FROM others o, generate_series(1, 100) r`,
      [accounts],
    );
    await db.query(
      `INSERT INTO keyword_rules (account_id, position, match, keyword, reply)
       SELECT $1::int, r, 'pattern', '*NEVER' || r || '*SAID*', 'unused' FROM generate_series(1, 99) r
       UNION ALL SELECT $1::int, 100, 'first_word', 'JOIN', 'Welcome to the club. Reply STOP to opt out.'`,
      [accountId],
    );
    await db.query('ANALYZE keyword_rules');
    const [{ rules }] = await db.query('SELECT count(*)::int AS rules FROM keyword_rules');
    console.log(`keyword_rules: ${rules} rules over ${accounts + 1} accounts`);

    const keywords = bench.app.get(KeywordRulesService);
    const texts = ['join us please', 'Join!', 'no match here at all, just a long reply about the weather in Hobart', 'never said'];
    for (let i = 0; i < 200; i++) await keywords.actionsFor(accountId, NUMBER, texts[i % texts.length]);
    const matchTimes: number[] = [];
    const matchStart = process.hrtime.bigint();
    for (let i = 0; i < 5000; i++) {
      const start = process.hrtime.bigint();
      await keywords.actionsFor(accountId, NUMBER, texts[i % texts.length]);
      matchTimes.push(ms(start));
    }
    const matchTotal = ms(matchStart);
    const m = stats(matchTimes);
    console.log(
      `match (100 rules checked, one statement): 5000 in ${fmt(matchTotal)} ms, ${fmt(5000 / (matchTotal / 1000))}/s sequential; p50 ${fmt(m.p50)} ms, p99 ${fmt(m.p99)} ms, max ${fmt(m.max)} ms`,
    );

    const inbound = bench.app.get(InboundService);
    const intakeTimes: number[] = [];
    for (let i = 0; i < 500; i++) {
      const start = process.hrtime.bigint();
      await inbound.receive({ from: `61413${String(100000 + i).padStart(6, '0')}`, to: NUMBER, text: 'JOIN please', receivedAt: new Date() });
      intakeTimes.push(ms(start));
    }
    const it = stats(intakeTimes);
    console.log(
      `intake (store the reply, match, write and debit the auto-reply; one transaction), 500 sequential: p50 ${fmt(it.p50)} ms, p99 ${fmt(it.p99)} ms, max ${fmt(it.max)} ms`,
    );

    // Wait for the carrier to bind before injecting.
    const bound = Date.now() + 30_000;
    while (smsc.sessionStats().length === 0 && Date.now() < bound) await new Promise((r) => setTimeout(r, 100));
    const sentAt = new Map<string, number>();
    const mobiles = Array.from({ length: replies }, (_, i) => `61412${String(500000 + i).padStart(6, '0')}`);
    const gap = 1000 / rate;
    const injectStart = Date.now();
    const injections: Array<Promise<void>> = [];
    for (let i = 0; i < replies; i++) {
      const due = injectStart + i * gap;
      const wait = due - Date.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      sentAt.set(mobiles[i], Date.now());
      injections.push(smsc.injectMo({ from: mobiles[i], to: NUMBER, text: 'JOIN please' }));
    }
    await Promise.all(injections);
    const deadline = Date.now() + 60_000;
    const answered = () => smsc.submits.filter((s) => s.smscId !== null && sentAt.has(s.destinationAddr));
    while (answered().length < replies && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const latencies = answered().map((s) => s.receivedAt.getTime() - sentAt.get(s.destinationAddr)!);
    const l = stats(latencies);
    console.log(
      `auto-reply (MO leaves the SMSC -> reply's submit_sm at the SMSC), ${replies} replies at ${rate}/s: answered ${latencies.length}; p50 ${fmt(l.p50)} ms, p99 ${fmt(l.p99)} ms, max ${fmt(l.max)} ms (target p99 <= 2000 ms)`,
    );
  } finally {
    await bench.drop();
    await smsc.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
