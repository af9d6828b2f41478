import { Client } from 'pg';
import { partitionHistoryMonths, partitionWebhookDays } from './scale-partitions';

/**
 * bench:scale's history: `total` messages over `days` days ending an hour ago, for the given accounts
 * (weighted 1/rank, so the first account is the biggest), written set-based a day at a time by
 * `connections` sessions. Every row is one the real code paths could have written:
 * - each account has, per day, one campaign send (80% of its day; every third one with a tracked link per
 *   message, every tenth one two parts long, one in 61 scheduled and then cancelled and refunded) and up to
 *   24 hourly API sends, each message with its own custom_ref (`order-<account>-<n>`);
 * - message rows keep the status they were accepted with (pending, cancelled); the send's dispatch
 *   watermark is past its last message, and each part is recorded: 93% delivered, 4% failed (with their
 *   receipts), 3% still waiting for one;
 * - ids are version 7 UUIDs whose time prefix is the row's creation time (as uuid7() makes them); parts and
 *   receipts are the SMPP_* carrier's (carrier 0), as a live account's are;
 * - 0.5% of delivered messages get a reply (a tenth of them STOP); clicked links have their quarter-hour
 *   click buckets; accounts with a status webhook have, for the last 30 days (the retention of webhook
 *   events and attempts), an event per receipt and its one delivered attempt;
 * - every send is debited once by what its messages cost, every cancelled message refunded by a line,
 *   and a monthly top-up grant keeps the balance the sum of the ledger (so ledger:verify is clean).
 * Foreign-key triggers are off while loading (rows are consistent by construction) and the secondary
 * indexes are built after the load, as a restore would.
 */
export interface HistoryAccount {
  id: number;
  sender: string;
  webhook: boolean;
}

export interface HistoryOptions {
  databaseUrl: string;
  total: number;
  days: number;
  connections: number;
  log: (line: string) => void;
}

const LOADED_TABLES = [
  'sends',
  'messages',
  'message_parts',
  'delivery_receipts',
  'inbound_messages',
  'short_links',
  'link_click_buckets',
  'webhook_events',
  'webhook_attempts',
  'credit_ledger',
  'credit_refund_lines',
];
const WEBHOOK_URL = 'https://hooks.example.com.au/sms/status';
const LINK_BASE = 'https://sms.example.com.au';

/**
 * A version 7 UUID with `at`'s milliseconds as its time prefix and a random v4's bits for the rest
 * (an expression, not a function: it runs once per row).
 */
const uuid7At = (at: string) => `(lpad(to_hex(floor(extract(epoch FROM ${at}) * 1000)::bigint), 12, '0') || '7' || substr(gen_random_uuid()::text, 16))::uuid`;

/** SQL helpers of each loading session (pg_temp: gone with the session). */
const SESSION_FUNCTIONS = [
  // Seven base62 characters of n × 1000003 mod 62^7: distinct for distinct n below 62^7 (a bijection).
  `CREATE FUNCTION pg_temp.code_of(n bigint) RETURNS text LANGUAGE sql IMMUTABLE AS $$
     SELECT string_agg(substr('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz', (((n * 1000003) % 3521614606208) / (62::bigint ^ k)::bigint % 62)::int + 1, 1), '' ORDER BY k DESC)
       FROM generate_series(0, 6) k $$`,
  `CREATE TEMP TABLE day_m (id uuid, account_id int, send_id bigint, to_number text, sender text, custom_ref text, status text, parts smallint, cost bigint,
                            created_at timestamptz, seq bigint, g int, shortened boolean, webhook boolean, code text)`,
];

export async function buildHistory(accounts: HistoryAccount[], o: HistoryOptions): Promise<{ seconds: number }> {
  const started = Date.now();
  const admin = await connect(o.databaseUrl);
  const dropped = await dropSecondaryIndexes(admin);
  await admin.query(`UPDATE accounts SET webhook_status_url = $1 WHERE id = ANY($2::int[])`, [WEBHOOK_URL, accounts.filter((a) => a.webhook).map((a) => a.id)]);
  const [{ end }] = (await admin.query(`SELECT date_trunc('hour', now()) - interval '1 hour' AS end`)).rows as Array<{ end: Date }>;
  await partitionHistoryMonths(admin, new Date(end.getTime() - o.days * 86_400_000));
  await partitionWebhookDays(admin, 31);
  const weights = accounts.map((_, i) => 1 / (i + 1));
  const weightSum = weights.reduce((a, b) => a + b, 0);
  let nextDay = 0;
  let done = 0;
  const worker = async () => {
    const c = await connect(o.databaseUrl);
    await c.query('SET session_replication_role = replica');
    for (const f of SESSION_FUNCTIONS) await c.query(f);
    for (let d = nextDay++; d < o.days; d = nextDay++) {
      const dayStart = new Date(end.getTime() - (o.days - d) * 86_400_000);
      // Cumulative rounding: the days of an account add up to exactly its share of the total.
      const counts = accounts.map((_, i) => {
        const share = (o.total * weights[i]) / weightSum;
        return Math.round((share * (d + 1)) / o.days) - Math.round((share * d) / o.days);
      });
      const loaded = await loadDay(c, accounts, counts, d, dayStart, end);
      done += loaded;
      if (d % 30 === 29 || d === o.days - 1) o.log(`  history: day ${d + 1} of ${o.days} loaded (${done} messages so far, ${Math.round((Date.now() - started) / 1000)} s)`);
    }
    await c.end();
  };
  await Promise.all(Array.from({ length: o.connections }, worker));
  await admin.query(`SET session_replication_role = replica`);
  await topUpAndBalance(admin);
  await admin.query(`RESET session_replication_role`);
  // The per-account month counts the triggers keep (they were off for the load), as the migration fills them.
  await admin.query(
    `INSERT INTO message_counts (account_id, month, messages) SELECT account_id, message_month(id), count(*) FROM messages GROUP BY 1, 2
     ON CONFLICT (account_id, month) DO UPDATE SET messages = excluded.messages`,
  );
  const loadedAt = Date.now();
  o.log(`  history: ${done} messages and their rows in ${Math.round((loadedAt - started) / 1000)} s; building ${dropped.length} indexes`);
  await admin.query(`SET maintenance_work_mem = '512MB'`);
  for (const def of dropped) await admin.query(def);
  o.log(`  history: indexes built in ${Math.round((Date.now() - loadedAt) / 1000)} s; VACUUM ANALYZE`);
  await admin.query(`VACUUM ANALYZE ${LOADED_TABLES.join(', ')}, accounts`);
  await admin.query('CHECKPOINT');
  await admin.end();
  return { seconds: (Date.now() - started) / 1000 };
}

async function connect(url: string): Promise<Client> {
  const c = new Client({ connectionString: url });
  await c.connect();
  return c;
}

/** Drops the loaded tables' non-unique secondary indexes (built again after the load) and answers their definitions. */
async function dropSecondaryIndexes(c: Client): Promise<string[]> {
  const { rows } = await c.query<{ name: string; def: string }>(
    `SELECT i.indexrelid::regclass::text AS name, pg_get_indexdef(i.indexrelid) AS def
       FROM pg_index i JOIN pg_class t ON t.oid = i.indrelid
      WHERE t.relname = ANY($1) AND t.relnamespace = 'public'::regnamespace AND NOT i.indisunique
        AND NOT EXISTS (SELECT 1 FROM pg_inherits h WHERE h.inhrelid = i.indexrelid)`,
    [LOADED_TABLES],
  );
  for (const r of rows) await c.query(`DROP INDEX ${r.name}`);
  // A partitioned table's index definition reads `ON ONLY parent`, which makes an invalid parent index and
  // none on the partitions; without ONLY it is built on every partition, as the migration made it.
  return rows.map((r) => r.def.replace(/ ON ONLY /, ' ON '));
}

interface PlannedSend {
  accountId: number;
  sender: string;
  createdAt: Date;
  n: number;
  kind: 'campaign' | 'api';
  shortened: boolean;
  cancelled: boolean;
  twoParts: boolean;
  webhook: boolean;
}

function planDay(accounts: HistoryAccount[], counts: number[], d: number, dayStart: Date, end: Date): PlannedSend[] {
  const plan: PlannedSend[] = [];
  accounts.forEach((a, i) => {
    const base = { accountId: a.id, sender: a.sender, webhook: a.webhook, shortened: false, cancelled: false, twoParts: false };
    const campaign = Math.round(counts[i] * 0.8);
    if (campaign > 0) {
      const createdAt = new Date(dayStart.getTime() + 9 * 3_600_000 + i * 37_000);
      plan.push({ ...base, createdAt, n: campaign, kind: 'campaign', shortened: (d + i) % 3 === 0, cancelled: (d * 20 + i) % 61 === 0, twoParts: (d + i) % 10 === 5 });
    }
    const api = counts[i] - campaign;
    for (let h = 0; h < 24; h++) {
      const n = Math.floor((api * (h + 1)) / 24) - Math.floor((api * h) / 24);
      if (n > 0) plan.push({ ...base, createdAt: new Date(dayStart.getTime() + h * 3_600_000 + 1_000 + i * 1_000), n, kind: 'api' });
    }
  });
  return plan.filter((p) => p.createdAt < end);
}

async function loadDay(c: Client, accounts: HistoryAccount[], counts: number[], d: number, dayStart: Date, end: Date): Promise<number> {
  const plan = planDay(accounts, counts, d, dayStart, end);
  if (plan.length === 0) return 0;
  const col = <T>(pick: (p: PlannedSend) => T) => plan.map(pick);
  await c.query('BEGIN');
  await c.query('TRUNCATE day_m');
  const { rows: sends } = await c.query<{ id: string }>(
    `INSERT INTO sends (account_id, kind, shorten_urls, custom_ref, scheduled_for, created_at)
     SELECT p.account_id, 'batch', p.shortened, CASE WHEN p.kind = 'campaign' THEN 'sale-' || to_char(p.created_at, 'YYYY-MM-DD') END,
            CASE WHEN p.cancelled THEN p.created_at + interval '1 day' END, p.created_at
       FROM unnest($1::int[], $2::timestamptz[], $3::text[], $4::boolean[], $5::boolean[]) WITH ORDINALITY AS p(account_id, created_at, kind, shortened, cancelled, ord)
      ORDER BY p.ord RETURNING id`,
    [col((p) => p.accountId), col((p) => p.createdAt.toISOString()), col((p) => p.kind), col((p) => p.shortened), col((p) => p.cancelled)],
  );
  // Messages in the order they were accepted (a send's rows share its creation time, as one transaction's now()).
  await c.query(
    `WITH m AS (
       INSERT INTO messages (id, account_id, send_id, to_number, sender, sender_type, body, custom_ref, status, encoding, parts, cost, is_test, scheduled_for, dispatch_at, created_at, updated_at)
       SELECT ${uuid7At('p.created_at')}, p.account_id, p.send_id,
              '614' || lpad(((p.account_id::bigint * 7919 + (p.send_id * 31 + g) * 104729) % 100000000)::text, 8, '0'),
              p.sender, 'shared',
              CASE WHEN p.kind = 'api' THEN 'Your order ' || p.account_id || '-' || p.send_id || '-' || g || ' is on its way. Track it in the app.'
                   ELSE 'Spring sale: 20% off everything this weekend' ||
                        CASE WHEN p.shortened THEN ' ${LINK_BASE}/' || pg_temp.code_of(p.send_id * 1000000 + g) ELSE '' END ||
                        CASE WHEN p.two_parts THEN '. Members get early access from 8am Saturday, free delivery on orders over $50, and a gift with every purchase while stocks last. Reply STOP to opt out' ELSE '. Reply STOP to opt out' END END,
              CASE WHEN p.kind = 'api' THEN 'order-' || p.account_id || '-' || p.send_id || '-' || g ELSE 'sale-' || to_char(p.created_at, 'YYYY-MM-DD') END,
              CASE WHEN p.cancelled THEN 'cancelled' ELSE 'pending' END, 'gsm7',
              CASE WHEN p.two_parts THEN 2 ELSE 1 END, CASE WHEN p.two_parts THEN 200 ELSE 100 END, false,
              CASE WHEN p.cancelled THEN p.created_at + interval '1 day' END,
              CASE WHEN p.cancelled THEN p.created_at + interval '1 day' ELSE p.created_at END, p.created_at, p.created_at
         FROM unnest($1::bigint[], $2::int[], $3::text[], $4::timestamptz[], $5::int[], $6::text[], $7::boolean[], $8::boolean[], $9::boolean[])
              WITH ORDINALITY AS p(send_id, account_id, sender, created_at, n, kind, shortened, cancelled, two_parts, ord)
        CROSS JOIN LATERAL generate_series(1, p.n) g
        ORDER BY p.ord, g
       RETURNING id, account_id, send_id, to_number, sender, custom_ref, status, parts, cost, created_at, seq, body)
     INSERT INTO day_m
     SELECT m.id, m.account_id, m.send_id, m.to_number, m.sender, m.custom_ref, m.status, m.parts, m.cost, m.created_at, m.seq,
            ('x' || right(m.id::text, 4))::bit(16)::int, s.shorten_urls, a.webhook_status_url <> '', substring(m.body FROM '${LINK_BASE}/([0-9A-Za-z]{7})')
       FROM m JOIN sends s ON s.id = m.send_id JOIN accounts a ON a.id = m.account_id`,
    [
      sends.map((s) => s.id),
      col((p) => p.accountId),
      col((p) => p.sender),
      col((p) => p.createdAt.toISOString()),
      col((p) => p.n),
      col((p) => p.kind),
      col((p) => p.shortened),
      col((p) => p.cancelled),
      col((p) => p.twoParts),
    ],
  );
  await writeOutcomes(c, end);
  await writeMoney(c);
  await c.query('COMMIT');
  return plan.reduce((s, p) => s + p.n, 0);
}

/** Parts and receipts, replies, links and their clicks, webhook events and attempts, of the day's messages (day_m). */
async function writeOutcomes(c: Client, end: Date): Promise<void> {
  // g: 16 random bits of each message (its id's last 4 hex digits), for the mixes.
  await c.query(
    `WITH p AS (
       INSERT INTO message_parts (message_id, part_number, account_id, total_parts, carrier_id, smsc_id, status, submitted_at, receipt_at, receipt_stat, receipt_err)
       SELECT m.id, k, m.account_id, m.parts, 0, replace(m.id::text, '-', '') || k,
              CASE WHEN m.g % 100 < 93 THEN 'delivered' WHEN m.g % 100 < 97 THEN 'failed' ELSE 'submitted' END,
              m.created_at + interval '2 seconds',
              CASE WHEN m.g % 100 < 97 THEN m.created_at + interval '8 seconds' END,
              CASE WHEN m.g % 100 < 93 THEN 'DELIVRD' WHEN m.g % 100 < 97 THEN 'UNDELIV' END,
              CASE WHEN m.g % 100 < 93 THEN '000' WHEN m.g % 100 < 97 THEN '001' END
         FROM day_m m CROSS JOIN LATERAL generate_series(1, m.parts) k WHERE m.status = 'pending'
       RETURNING message_id, part_number, account_id, total_parts, smsc_id, status, receipt_at, receipt_stat, receipt_err),
     r AS (
       INSERT INTO delivery_receipts (carrier_id, smsc_id, state, stat, err, done_at, received_at, applied_at)
       SELECT 0, smsc_id, status, receipt_stat, receipt_err, receipt_at - interval '1 second', receipt_at, receipt_at FROM p WHERE receipt_at IS NOT NULL),
     e AS (
     INSERT INTO webhook_events (id, account_id, kind, body, state, attempts, next_attempt_at, created_at, finished_at)
     SELECT (floor(extract(epoch FROM p.receipt_at) / 86400)::bigint << 32) | (nextval('webhook_events_id_seq') & 4294967295), p.account_id, 'status',
            json_build_object('to', m.to_number, 'sender', m.sender, 'message', '', 'custom_ref', coalesce(m.custom_ref, ''), 'status', p.status,
                              'message_id', p.message_id, 'received_at', to_char(p.receipt_at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS'),
                              'part_number', p.part_number, 'total_parts', p.total_parts)::text,
            'delivered', 1, p.receipt_at, p.receipt_at, p.receipt_at + interval '1 second'
       FROM p JOIN day_m m ON m.id = p.message_id WHERE m.webhook AND p.receipt_at >= $1::timestamptz - interval '30 days'
      ORDER BY p.receipt_at
     RETURNING id, account_id, created_at, finished_at)
     INSERT INTO webhook_attempts (event_id, account_id, kind, url, attempt, response_status, duration_ms, delivered, created_at)
     SELECT e.id, e.account_id, 'status', $2, 1, 200, 40 + e.id % 200, true, e.finished_at FROM e ORDER BY e.id`,
    [end.toISOString(), WEBHOOK_URL],
  );
  await c.query(
    `INSERT INTO inbound_messages (id, account_id, from_number, to_number, body, type, original_message_id, original_custom_ref, received_at)
     SELECT ${uuid7At("(m.created_at + interval '10 minutes')")}, m.account_id, m.to_number, m.sender,
            CASE WHEN m.g % 2000 < 1 THEN 'STOP' ELSE 'Thanks, see you Saturday' END, CASE WHEN m.g % 2000 < 1 THEN 'unsubscribe' ELSE 'inbound' END,
            m.id, m.custom_ref, m.created_at + interval '10 minutes'
       FROM day_m m WHERE m.status = 'pending' AND m.g % 200 = 7 AND m.created_at + interval '10 minutes' < $1
      ORDER BY m.created_at, m.seq`,
    [end.toISOString()],
  );
  await c.query(
    `WITH l AS (
       INSERT INTO short_links (code, account_id, send_id, message_id, kind, url, created_at, clicks, first_clicked_at, last_clicked_at)
       SELECT m.code, m.account_id, m.send_id, m.id, 'url',
              'https://shop.example.com.au/sale?utm_source=sms&c=' || m.send_id, m.created_at,
              CASE WHEN m.g % 100 < 8 THEN 1 + m.g % 3 ELSE 0 END,
              CASE WHEN m.g % 100 < 8 THEN m.created_at + interval '1 hour' END,
              CASE WHEN m.g % 100 < 8 THEN m.created_at + interval '1 hour' + (m.g % 3) * interval '20 minutes' END
         FROM day_m m WHERE m.code IS NOT NULL
       RETURNING account_id, send_id, clicks, first_clicked_at)
     INSERT INTO link_click_buckets (account_id, bucket, send_id, clicks)
     SELECT account_id, date_bin('15 minutes', first_clicked_at, 'epoch'), send_id, sum(clicks) FROM l WHERE clicks > 0 GROUP BY 1, 2, 3`,
  );
}

/** Each send's totals and dispatch watermark, its debit, and the refund of a cancelled send. */
async function writeMoney(c: Client): Promise<void> {
  await c.query(
    `WITH t AS (SELECT send_id, count(*)::int AS n, sum(cost) AS cost, max(seq) AS last_seq, bool_or(status = 'cancelled') AS cancelled FROM day_m GROUP BY send_id),
     s AS (
       UPDATE sends s SET message_count = t.n, total_cost = t.cost, last_seq = t.last_seq, last_at = coalesce(s.scheduled_for, s.created_at),
              claimed_through_at = CASE WHEN t.cancelled THEN '-infinity' ELSE s.created_at END,
              claimed_through_seq = CASE WHEN t.cancelled THEN 0 ELSE t.last_seq END
         FROM t WHERE s.id = t.send_id RETURNING s.id, s.account_id, s.total_cost, s.created_at, t.cancelled),
     l AS (
       INSERT INTO credit_ledger (account_id, kind, amount, reason, reference, created_at)
       SELECT account_id, 'debit', -total_cost, '', 'send:' || id, created_at FROM s
       UNION ALL
       SELECT account_id, 'refund', total_cost, 'cancelled', 'send:' || id, created_at + interval '1 hour' FROM s WHERE cancelled
       ORDER BY 6
       RETURNING id, kind, reference)
     INSERT INTO credit_refund_lines (message_id, ledger_entry_id, amount)
     SELECT m.id, l.id, m.cost FROM day_m m JOIN l ON l.kind = 'refund' AND l.reference = 'send:' || m.send_id WHERE m.status = 'cancelled'`,
  );
}

/** A top-up grant per account and month covering that month's debits; the balance is then the ledger's sum. */
async function topUpAndBalance(c: Client): Promise<void> {
  await c.query(
    `INSERT INTO credit_ledger (account_id, kind, amount, reason, reference, created_at)
     SELECT account_id, 'grant', -sum(amount), 'monthly top-up', 'bench', date_trunc('month', min(created_at))
       FROM credit_ledger WHERE kind = 'debit' GROUP BY account_id, date_trunc('month', created_at) ORDER BY 6`,
  );
  await c.query(`UPDATE accounts a SET credit_balance = (SELECT coalesce(sum(amount), 0) FROM credit_ledger l WHERE l.account_id = a.id)`);
}
