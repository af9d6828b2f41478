import 'reflect-metadata';
import { randomBytes, randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { loadConfig } from '../src/config/app-config';
import { prepareDatabase } from '../src/database/prepare-database';
import { MIGRATIONS } from '../src/migrations';
import { cpuMicros } from './dispatch-measures';
import { argValue, dropBenchDatabase, fmt } from './support';

/**
 * npm run bench:write-model [-- --messages N] [-- --rounds R]
 *
 * A model, not the product: what PostgreSQL spends on a campaign's dispatch writes in today's table
 * layout ("5 writes": insert, claim, part insert, receipt onto the part, settle) and in the layout the
 * 3-write goal points to ("3 writes": a single-part message keeps its SMSC id and receipt on its own
 * row, claims live only in their batch row, so: insert, outcome, receipt). The statements are today's
 * (or their 3-write counterparts), batched as the gateway batches them (10000 per accept, 1000 per claim,
 * 30 per outcome commit, 170 per receipt commit), on one connection with nothing else running: no API,
 * no SMPP, no webhooks. It prints row writes and the backend's CPU (from /proc) per message, by phase,
 * alternating the layouts for R rounds. Use it to weigh a layout before building it.
 */
type Layout = 'five' | 'three';

const ACCEPT = 10_000;
const CLAIM = 1000;
const OUTCOME = 30;
const RECEIPT = 170;

async function model(layout: Layout, messages: number): Promise<{ writes: number; phases: Record<string, number> }> {
  const name = `sms_model_${Date.now().toString(36)}_${randomBytes(2).toString('hex')}`;
  const url = new URL(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/sms');
  url.pathname = `/${name}`;
  await prepareDatabase(loadConfig(process.env, { databaseUrl: url.toString(), logLevel: 'silent' }), MIGRATIONS);
  const db = new Client({ connectionString: url.toString() });
  await db.connect();
  try {
    const [{ pid }] = (await db.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows;
    const [{ id: accountId }] = (await db.query<{ id: number }>(`INSERT INTO accounts (name, optout_code) VALUES ('model', 'model001') RETURNING id`)).rows;
    const [{ id: sendId }] = (await db.query<{ id: number }>(`INSERT INTO sends (account_id, kind) VALUES ($1, 'batch') RETURNING id`, [accountId])).rows;
    if (layout === 'three') {
      await db.query(`ALTER TABLE messages ADD smsc_id text, ADD receipt_at timestamptz, ADD receipt_stat text, ADD receipt_err text`);
      await db.query(`CREATE INDEX messages_smsc_idx ON messages (smsc_id) WHERE smsc_id IS NOT NULL`);
      await db.query(`DROP INDEX messages_claimed_by_idx`);
      await db.query(`ALTER TABLE dispatch_batches ADD send_id bigint, ADD upto_at timestamptz, ADD upto_id uuid`);
      await db.query(`CREATE INDEX ON dispatch_batches (send_id, upto_at DESC, upto_id DESC)`);
    }
    const writes = async () => Number((await db.query(`SELECT sum(n_tup_ins + n_tup_upd + n_tup_del) AS w FROM pg_stat_user_tables`)).rows[0].w);
    const before = await writes();
    const transaction = async (work: () => Promise<unknown>) => {
      await db.query('START TRANSACTION');
      await db.query(`SELECT set_config('enable_seqscan', 'off', true), set_config('enable_hashjoin', 'off', true), set_config('enable_mergejoin', 'off', true)`);
      await work();
      await db.query('COMMIT');
    };
    const phases: Record<string, number> = {};
    const phase = async (label: string, work: () => Promise<void>) => {
      const start = cpuMicros(pid);
      await work();
      phases[label] = (cpuMicros(pid) - start) / messages;
    };

    await phase('accept', async () => {
      for (let i = 0; i < messages; i += ACCEPT) {
        const ids = Array.from({ length: Math.min(ACCEPT, messages - i) }, () => randomUUID());
        await transaction(() =>
          db.query(
            `INSERT INTO messages (id, account_id, send_id, to_number, sender, sender_type, body, status, encoding, parts, cost, is_test, dispatch_at)
             SELECT t.id, $1, $2, '614' || lpad(t.ord::text, 8, '0'), 'Brand', 'alpha', 'Your appointment is confirmed for tomorrow at 10am.', 'pending', 'gsm7', 1, 100, false, now() - interval '1 second'
               FROM unnest($3::uuid[]) WITH ORDINALITY AS t(id, ord)`,
            [accountId, sendId, ids],
          ),
        );
      }
    });
    await db.query('ANALYZE messages');
    await db.query('ANALYZE dispatch_batches');

    const claimed: string[] = [];
    await phase('claim', async () => {
      for (let i = 0; i < messages; i += CLAIM) {
        await transaction(async () => {
          const { rows } =
            layout === 'five'
              ? await db.query<{ id: string }>(
                  `WITH claimed AS (
                     UPDATE messages m SET status = 'sent', dispatched_at = now(), claimed_by = $3::uuid, updated_at = now()
                      WHERE m.id = ANY(ARRAY(SELECT id FROM messages WHERE send_id = $1 AND status IN ('pending', 'scheduled') AND dispatched_at IS NULL AND dispatch_at <= now()
                                             ORDER BY dispatch_at LIMIT $2 FOR UPDATE SKIP LOCKED))
                        AND m.status IN ('pending', 'scheduled') AND m.dispatched_at IS NULL
                      RETURNING m.id, m.to_number, m.body),
                   batch AS (INSERT INTO dispatch_batches (batch_id) SELECT $3::uuid WHERE EXISTS (SELECT 1 FROM claimed))
                   SELECT id FROM claimed`,
                  [sendId, CLAIM, randomUUID()],
                )
              : await claimByWatermark(db, sendId);
          claimed.push(...rows.map((r) => r.id));
        });
      }
    });

    const smscIds = new Map(claimed.map((id, i) => [id, `S${i.toString(16).padStart(8, '0')}`]));
    const partTable = layout === 'five' ? 'message_parts' : 'messages';
    await phase('outcome', async () => {
      for (let i = 0; i < claimed.length; i += OUTCOME) {
        const ids = claimed.slice(i, i + OUTCOME);
        const smsc = ids.map((id) => smscIds.get(id));
        await transaction(async () => {
          if (layout === 'five') {
            await db.query(
              `INSERT INTO message_parts (message_id, part_number, total_parts, smsc_id, status)
               SELECT message_id, 1, 1, smsc_id, 'submitted' FROM unnest($1::uuid[], $2::text[]) AS t(message_id, smsc_id)
               ON CONFLICT (message_id, part_number) DO UPDATE SET smsc_id = EXCLUDED.smsc_id`,
              [ids, smsc],
            );
          } else {
            await db.query(
              `UPDATE messages m SET status = 'sent', dispatched_at = now(), smsc_id = i.smsc_id, updated_at = now()
                 FROM unnest($1::uuid[], $2::text[]) AS i(message_id, smsc_id) WHERE m.id = i.message_id AND m.status IN ('pending', 'scheduled')`,
              [ids, smsc],
            );
          }
          // Receipts that overtook their submission are looked for with every outcome, in both layouts.
          await db.query(
            `UPDATE delivery_receipts r SET applied_at = now() WHERE r.smsc_id = ANY($1::text[]) AND r.applied_at IS NULL
                AND EXISTS (SELECT 1 FROM ${partTable} p WHERE p.smsc_id = r.smsc_id)`,
            [smsc],
          );
        });
      }
    });
    await db.query('DELETE FROM dispatch_batches');
    await db.query('ANALYZE messages');
    await db.query('ANALYZE message_parts');

    const receipts = [...smscIds.values()];
    await phase('receipt', async () => {
      for (let i = 0; i < receipts.length; i += RECEIPT) {
        const smsc = receipts.slice(i, i + RECEIPT);
        await transaction(async () => {
          if (layout === 'five') {
            const { rows } = await db.query<{ message_id: string }>(
              `UPDATE message_parts p SET status = 'delivered', receipt_at = now(), receipt_stat = 'DELIVRD', receipt_err = '000'
                 FROM unnest($1::text[]) AS i(smsc_id) WHERE p.smsc_id = i.smsc_id AND p.smsc_id IS NOT NULL AND p.status = 'submitted'
               RETURNING p.message_id`,
              [smsc],
            );
            await db.query(`UPDATE messages m SET status = 'delivered', updated_at = now() FROM unnest($1::uuid[]) AS s(id) WHERE m.id = s.id AND m.status = 'sent'`, [
              rows.map((r) => r.message_id),
            ]);
          } else {
            await db.query(
              `UPDATE messages m SET status = 'delivered', receipt_at = now(), receipt_stat = 'DELIVRD', receipt_err = '000', updated_at = now()
                 FROM unnest($1::text[]) AS i(smsc_id) WHERE m.smsc_id = i.smsc_id AND m.smsc_id IS NOT NULL AND m.status = 'sent'`,
              [smsc],
            );
          }
        });
      }
    });
    const [{ delivered }] = (await db.query<{ delivered: number }>(`SELECT count(*)::int AS delivered FROM messages WHERE status = 'delivered'`)).rows;
    if (delivered !== messages) throw new Error(`${layout}: ${delivered} of ${messages} delivered`);
    await db.query('SELECT pg_stat_force_next_flush()');
    return { writes: ((await writes()) - before) / messages, phases };
  } finally {
    await db.end();
    await dropBenchDatabase(url);
  }
}

/** The 3-write claim: claimers of a send take turns (an advisory lock) and continue after the last batch's watermark; no message row is written. */
function claimByWatermark(db: Client, sendId: number) {
  return db.query<{ id: string }>('SELECT pg_advisory_xact_lock($1)', [sendId]).then(() =>
    db.query<{ id: string }>(
      `WITH mark AS (SELECT upto_at, upto_id FROM dispatch_batches WHERE send_id = $1 ORDER BY upto_at DESC, upto_id DESC LIMIT 1),
       picked AS (
         SELECT m.id, m.dispatch_at FROM messages m
          WHERE send_id = $1 AND status IN ('pending', 'scheduled') AND dispatched_at IS NULL AND dispatch_at <= now()
            AND (NOT EXISTS (SELECT 1 FROM mark) OR (m.dispatch_at, m.id) > (SELECT upto_at, upto_id FROM mark))
          ORDER BY dispatch_at, id LIMIT $2),
       batch AS (
         INSERT INTO dispatch_batches (batch_id, send_id, upto_at, upto_id)
         SELECT $3::uuid, $1, max(dispatch_at), (array_agg(id ORDER BY dispatch_at DESC, id DESC))[1] FROM picked HAVING count(*) > 0)
       SELECT id FROM picked`,
      [sendId, CLAIM, randomUUID()],
    ),
  );
}

async function main() {
  const messages = argValue('messages', 50_000);
  const rounds = argValue('rounds', 2);
  console.log(`write model: ${messages} single-part messages, one connection, statements batched as the gateway batches them; PostgreSQL backend CPU per message`);
  for (let round = 1; round <= rounds; round++) {
    for (const layout of (round % 2 ? ['five', 'three'] : ['three', 'five']) as Layout[]) {
      const { writes, phases } = await model(layout, messages);
      const total = Object.values(phases).reduce((sum, v) => sum + v, 0);
      const split = Object.entries(phases)
        .map(([label, us]) => `${label} ${fmt(us)}`)
        .join(', ');
      console.log(`  round ${round}, ${layout === 'five' ? "today's layout" : '3-write layout'}: ${fmt(writes)} row writes, ${fmt(total)} µs (${split})`);
    }
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
