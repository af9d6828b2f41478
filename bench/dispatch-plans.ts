import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import type { DataSource } from 'typeorm';
import { Tx } from '../src/database/unit-of-work';
import { ClaimsRepository } from '../src/delivery/state/claims.repository';
import { SweepRepository } from '../src/delivery/state/sweep.repository';
import { OutcomesRepository } from '../src/delivery/state/outcomes.repository';
import { ReceiptsRepository } from '../src/delivery/state/receipts.repository';

/**
 * `--explain`: runs the dispatch path's own statements (the repository's methods, not copies of their
 * SQL) once more on the benchmark's database after the campaign, on a fixture send of `n` messages (a
 * batch of `batch` claimed, recorded and receipted), in
 * one transaction that is rolled back, with auto_explain reporting each statement's EXPLAIN (ANALYZE,
 * BUFFERS) to the client. Prints, per statement, its time, buffers, and every scan node; the full plans go
 * to a file. A `Seq Scan` on messages or message_parts here is a scan that grows with the table.
 */
export async function explainDispatchPath(ds: DataSource, accountId: number, n: number, batch: number, planFile: string): Promise<string[]> {
  const runner = ds.createQueryRunner();
  const client = (await runner.connect()) as { on(event: 'notice', fn: (msg: { message?: string }) => void): void; removeAllListeners(event: string): void };
  const plans: Array<{ label: string; text: string }> = [];
  let label = '';
  client.on('notice', (msg) => {
    if (msg.message?.includes('plan:') && !msg.message.includes('AS flush') && label) plans.push({ label, text: msg.message });
  });
  // A statement's plan is reported when its portal closes, i.e. during the next statement: a trivial
  // statement after each step flushes the step's last plan while the step's label still applies.
  const step = async <T>(name: string, work: () => Promise<T>): Promise<T> => {
    label = name;
    try {
      return await work();
    } finally {
      await runner.query('SELECT 1 AS flush');
      label = '';
    }
  };
  try {
    await runner.startTransaction();
    for (const setting of [
      "LOAD 'auto_explain'",
      'SET LOCAL auto_explain.log_min_duration = 0',
      'SET LOCAL auto_explain.log_analyze = on',
      'SET LOCAL auto_explain.log_buffers = on',
      "SET LOCAL auto_explain.log_level = 'notice'",
    ])
      await runner.query(setting);
    const [{ id: sendId }] = await runner.query(`INSERT INTO sends (account_id, kind, message_count) VALUES ($1, 'batch', $2) RETURNING id`, [accountId, n]);
    await runner.query(
      `WITH inserted AS (
         INSERT INTO messages (id, account_id, send_id, to_number, sender, sender_type, body, status, encoding, parts, cost, is_test, dispatch_at)
         SELECT gen_random_uuid(), $1, $2, '6149' || lpad(g::text, 7, '0'), 'Explain', 'alphanumeric', 'plan check ' || g, 'pending', 'gsm7', 1, 100, false, now() - interval '1 second'
           FROM generate_series(1, $3) g
         RETURNING dispatch_at, seq
       )
       UPDATE sends SET (last_at, last_seq) = (SELECT dispatch_at, seq FROM inserted ORDER BY dispatch_at DESC, seq DESC LIMIT 1) WHERE id = $2`,
      [accountId, sendId, n],
    );
    const tx = new Tx(runner.manager);
    // The repositories on this transaction's connection (their pool-level statements run here too).
    const claims = new ClaimsRepository(runner.manager as unknown as DataSource);
    const sweep = new SweepRepository(runner.manager as unknown as DataSource);
    const outcomes = new OutcomesRepository();
    const receipts = new ReceiptsRepository();
    // The sweeper's statement first: the later ones pin this transaction to index lookups, as in production.
    await step('sweeper: sends with unclaimed due messages', () => sweep.sendsWithUnclaimedDue(0, 1000));
    const batchId = randomUUID();
    const { messages: claimed } = await step('claim a batch', () => claims.claimDue(sendId, batch, batchId));
    const smscId = (i: number) => `explain-${sendId}-${i}`;
    await step('record the outcomes', async () => {
      await outcomes.recordOutcomes(
        claimed.map((m, i) => ({
          batchId,
          accountId: m.accountId,
          messageId: m.id,
          partNumber: 1,
          totalParts: 1,
          carrierId: 0,
          smscId: smscId(i),
          error: null,
          receiptDueAt: null,
        })),
        tx,
      );
    });
    const now = new Date();
    await step('store and apply the receipts', () =>
      receipts.recordReceipts(
        claimed.map((_, i) => ({ carrierId: 0, smscId: smscId(i), state: 'delivered' as const, stat: 'DELIVRD', err: '000', doneAt: now, receivedAt: now })),
        tx,
      ),
    );
    await step('sweeper: receipts that overtook their part', () => receipts.applyLateReceipts(tx));
    await step('sweeper: take back stale claims', () => sweep.releaseStaleClaims(30_000));
  } finally {
    client.removeAllListeners('notice');
    if (runner.isTransactionActive) await runner.rollbackTransaction();
    await runner.release();
  }
  writeFileSync(planFile, plans.map((p) => `### ${p.label}\n${p.text}\n`).join('\n'));
  return plans.map((p) => `    ${p.label.padEnd(46)} ${summarise(p.text)}`);
}

/** "12.3 ms, 2345 buffers; Index Scan using x on messages ×2, …" from an auto_explain plan. */
function summarise(plan: string): string {
  const duration = /duration: ([\d.]+) ms/.exec(plan)?.[1] ?? '?';
  const buffers = /Buffers: shared((?: \w+=\d+)+)/.exec(plan)?.[1] ?? '';
  const blocks = [...buffers.matchAll(/=(\d+)/g)].reduce((sum, m) => sum + Number(m[1]), 0);
  const scans = new Map<string, number>();
  for (const m of plan.matchAll(/(Seq Scan|Index Scan|Index Only Scan|Bitmap Index Scan|Bitmap Heap Scan|Tid Scan)(?: Backward)?(?: using (\S+))? on (\S+)/g)) {
    const key = `${m[1]}${m[2] ? ` using ${m[2]}` : ''} on ${m[3]}`;
    scans.set(key, (scans.get(key) ?? 0) + 1);
  }
  return `${duration} ms, ${blocks} buffers; ${[...scans].map(([k, c]) => (c > 1 ? `${k} ×${c}` : k)).join(', ') || 'no table scan'}`;
}
