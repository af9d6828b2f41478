import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DataSource } from 'typeorm';
import { SessionsService } from '../src/users/sessions.service';
import { UsersService } from '../src/users/users.service';
import { fmt, ms, stats } from './support';

const FIRST = [
  'Olivia',
  'Noah',
  'Charlotte',
  'Oliver',
  'Amelia',
  'Jack',
  'Isla',
  'William',
  'Mia',
  'Leo',
  'Ava',
  'Henry',
  'Grace',
  'Lucas',
  'Chloe',
  'Thomas',
  'Zoe',
  'James',
  'Ruby',
  'Ethan',
  'Sophie',
  'Harrison',
  'Matilda',
  'Liam',
  'Evie',
  'Hudson',
  'Willow',
  'Archie',
  'Harper',
  'Charlie',
  'Ella',
  'Lachlan',
  'Sienna',
  'Mason',
  'Ivy',
  'Theodore',
  'Lily',
  'Hunter',
  'Aria',
  'Max',
];
const LAST = [
  'Smith',
  'Jones',
  'Williams',
  'Brown',
  'Wilson',
  'Taylor',
  'Johnson',
  'White',
  'Martin',
  'Anderson',
  'Thompson',
  'Nguyen',
  'Thomas',
  'Walker',
  'Harris',
  'Lee',
  'Ryan',
  'Robinson',
  'Kelly',
  'King',
  'Davis',
  'Wright',
  'Evans',
  'Roberts',
  'Green',
  'Hall',
  'Wood',
  'Jackson',
  'Clarke',
  'Patel',
  'Khan',
  'Lewis',
  'James',
  'Phillips',
  'Mitchell',
  'Turner',
  'Campbell',
  'Young',
  'Morris',
  'Cooper',
];
const sqlArray = (values: string[]) => `ARRAY[${values.map((v) => `'${v}'`).join(',')}]`;

/**
 * The dashboard's contact search with `count` contacts in one account (and a second account holding a
 * fifth as many, so the account filter is real): each query through the full HTTP stack (the Contacts
 * page as a signed-in person sees it), repeated, p50/p99 per query and over all of them.
 */
export async function benchContactSearch(app: NestFastifyApplication, count: number): Promise<void> {
  const db = app.get(DataSource);
  const [{ id: accountId }] = await db.query(`INSERT INTO accounts (name, optout_code) VALUES ('Search bench', 'srchbench1') RETURNING id`);
  const [{ id: otherId }] = await db.query(`INSERT INTO accounts (name, optout_code) VALUES ('Search bench other', 'srchbench2') RETURNING id`);
  let t = process.hrtime.bigint();
  const fill = async (account: number, n: number, base: number) => {
    for (let from = 0; from < n; from += 100_000) {
      await db.query(
        `INSERT INTO contacts (account_id, number, first_name, last_name, company, other, field_1)
         SELECT $1, '614' || lpad(((i * 7919 + $4::bigint) % 100000000)::text, 8, '0'),
                (${sqlArray(FIRST)})[1 + (i * 31) % ${FIRST.length}],
                (${sqlArray(LAST)})[1 + (i * 17 + i / 40) % ${LAST.length}] || CASE WHEN i % 7 = 0 THEN '-' || (i % 997) ELSE '' END,
                'Company ' || (i % 5000), CASE WHEN i % 100 = 0 THEN 'Order ' || i ELSE '' END, 'tag' || (i % 25)
           FROM generate_series($2::bigint, $3::bigint) i`,
        [account, from, Math.min(from + 100_000, n) - 1, base],
      );
    }
  };
  await fill(accountId, count, 0);
  await fill(otherId, Math.floor(count / 5), 50_000_000);
  await db.query('ANALYZE contacts');
  console.log(`\nsearch: ${count} contacts in the account (+${Math.floor(count / 5)} in another) written and indexed in ${fmt(ms(t) / 1000)} s`);

  const owner = await app.get(UsersService).createByOperator(accountId, { email: 'search.bench@example.com.au', owner: true });
  const { token } = await app.get(SessionsService).create(owner.user.id, '127.0.0.1');
  const cookie = `sid=${token}`;
  const someNumber = (await db.query(`SELECT number FROM contacts WHERE account_id = $1 ORDER BY id LIMIT 1 OFFSET $2`, [accountId, Math.floor(count / 3)]))[0].number as string;
  const queries: Array<[string, string]> = [
    ['browse, newest page', ''],
    ['first name (common)', 'olivia'],
    ['full name', 'Ruby Nguyen'],
    ['last name with suffix (rare)', 'Kelly-42'],
    ['company (1 in 5000)', 'Company 4242'],
    ['tag (1 in 25)', 'tag7'],
    ['number, local form', `0${someNumber.slice(2)}`],
    ['number prefix', '0412 3'],
    ['number digits (4)', someNumber.slice(-4)],
    ['other field', 'Order 4200'],
    ['no match', 'qqqxz'],
    ['two letters', 'zo'],
  ];
  const all: number[] = [];
  const baseline: number[] = [];
  for (let i = 0; i < 40; i++) {
    t = process.hrtime.bigint();
    await app.inject({ method: 'GET', url: '/contacts/new', headers: { cookie, accept: 'text/html' } });
    baseline.push(ms(t));
  }
  const b = stats(baseline);
  console.log(`a page with no contact query (/contacts/new: session, guard, render): p50 ${fmt(b.p50)} ms, p99 ${fmt(b.p99)} ms`);
  console.log(`GET /contacts?q= through the full stack (app.inject, signed in), 40 requests each:`);
  for (const [label, q] of queries) {
    const samples: number[] = [];
    let shown = 0;
    for (let i = 0; i < 40; i++) {
      t = process.hrtime.bigint();
      const res = await app.inject({ method: 'GET', url: `/contacts?q=${encodeURIComponent(q)}`, headers: { cookie, accept: 'text/html' } });
      samples.push(ms(t));
      if (res.statusCode !== 200) throw new Error(`/contacts?q=${q} -> ${res.statusCode}`);
      shown = (res.body.match(/class="mono" href="\/contacts\/\d+"/g) ?? []).length;
    }
    all.push(...samples);
    const s = stats(samples);
    console.log(`  ${`${label} ${JSON.stringify(q)}`.padEnd(44)} p50 ${fmt(s.p50).padStart(6)} ms  p99 ${fmt(s.p99).padStart(6)} ms  (${shown} shown)`);
  }
  const s = stats(all);
  console.log(`  all ${all.length} searches: p50 ${fmt(s.p50)} ms, p99 ${fmt(s.p99)} ms, max ${fmt(s.max)} ms`);
}
