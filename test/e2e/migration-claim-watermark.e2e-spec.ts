import { DataSource, QueryRunner } from 'typeorm';
import { loadConfig } from '../../src/config/app-config';
import { ClaimWatermark1763702600000 } from '../../src/database/migrations/1763702600000-ClaimWatermark';
import { typeormOptions } from '../../src/database/typeorm-options';

/**
 * The claim-watermark migration on data in every state the layout before it could hold: run down to that
 * layout, rows written as its code wrote them, then up again (and down once more), in one transaction
 * that is rolled back.
 */
describe('Migration: claim watermark', () => {
  let dataSource: DataSource;
  let q: QueryRunner;
  const migration = new ClaimWatermark1763702600000();

  beforeAll(async () => {
    // The file's own copy of the migrated template (per-file-database.ts set DATABASE_URL).
    dataSource = new DataSource({ ...typeormOptions(loadConfig(process.env), { entities: [], migrations: [] }), extra: { max: 1 } });
    await dataSource.initialize();
    q = dataSource.createQueryRunner();
    await q.startTransaction();
    await migration.down(q);
  });

  afterAll(async () => {
    await q.rollbackTransaction();
    await q.release();
    await dataSource.destroy();
  });

  /** Message `label` of the send, at `minute` minutes past the hour in dispatch order, as the layout before wrote it. */
  async function message(sendId: number, label: string, minute: number, status: string, extra: { dispatched?: boolean; claimedBy?: string; parts?: number } = {}) {
    const [{ id }] = await q.query(
      `INSERT INTO messages (id, account_id, send_id, to_number, sender, sender_type, body, status, encoding, parts, cost, is_test, dispatch_at, dispatched_at, claimed_by)
       SELECT gen_random_uuid(), account_id, id, '6141234567' || $3, 'Brand', 'alphanumeric', $2, $4, 'gsm7', $5, 100, false,
              date_trunc('hour', now()) - interval '1 hour' + $6 * interval '1 minute', CASE WHEN $7 THEN now() END, $8::uuid
         FROM sends WHERE id = $1 RETURNING id`,
      [sendId, label, label.length, status, extra.parts ?? 1, minute, extra.dispatched ?? false, extra.claimedBy ?? null],
    );
    return id as string;
  }

  it('moves single parts onto their messages, sends claims in flight back to waiting, and sets each send’s watermark', async () => {
    const [{ id: accountId }] = await q.query(`INSERT INTO accounts (name, optout_code) VALUES ('migration', 'migr-cw1') RETURNING id`);
    const [{ id: sendId }] = await q.query(`INSERT INTO sends (account_id, kind) VALUES ($1, 'batch') RETURNING id`, [accountId]);
    const batch = '00000000-0000-4000-8000-000000000001';
    const delivered = await message(sendId, 'delivered', 0, 'delivered', { dispatched: true, claimedBy: batch });
    const submitted = await message(sendId, 'submitted', 1, 'sent', { dispatched: true, claimedBy: batch });
    const inFlight = await message(sendId, 'in-flight', 2, 'sent', { dispatched: true, claimedBy: batch });
    const multi = await message(sendId, 'multi', 3, 'sent', { dispatched: true, claimedBy: batch, parts: 2 });
    const cancelled = await message(sendId, 'cancelled', 4, 'cancelled', { dispatched: true });
    const waiting = await message(sendId, 'waiting', 5, 'pending');
    const later = await message(sendId, 'later', 120, 'scheduled');
    await q.query(`INSERT INTO dispatch_batches (batch_id) VALUES ($1)`, [batch]);
    await q.query(
      `INSERT INTO message_parts (message_id, part_number, total_parts, smsc_id, status, submitted_at, receipt_at, receipt_stat, receipt_err)
       VALUES ($1, 1, 1, 'smsc-d', 'delivered', now() - interval '5 minutes', now() - interval '4 minutes', 'DELIVRD', '000'),
              ($2, 1, 1, 'smsc-s', 'submitted', now() - interval '3 minutes', NULL, NULL, NULL),
              ($3, 1, 2, 'smsc-m1', 'submitted', now(), NULL, NULL, NULL), ($3, 2, 2, 'smsc-m2', 'submitted', now(), NULL, NULL, NULL)`,
      [delivered, submitted, multi],
    );
    const [{ empty: emptySend }] = await q.query(`INSERT INTO sends (account_id, kind) VALUES ($1, 'batch') RETURNING id AS empty`, [accountId]);

    await migration.up(q);

    const rows = await q.query(
      `SELECT body, status, smsc_id, receipt_stat, receipt_err, receipt_at IS NOT NULL AS receipted, submitted_at IS NOT NULL AS submitted FROM messages WHERE send_id = $1 ORDER BY dispatch_at`,
      [sendId],
    );
    expect(rows).toEqual([
      { body: 'delivered', status: 'delivered', smsc_id: 'smsc-d', receipt_stat: 'DELIVRD', receipt_err: '000', receipted: true, submitted: true },
      { body: 'submitted', status: 'sent', smsc_id: 'smsc-s', receipt_stat: null, receipt_err: null, receipted: false, submitted: true },
      { body: 'in-flight', status: 'pending', smsc_id: null, receipt_stat: null, receipt_err: null, receipted: false, submitted: false },
      { body: 'multi', status: 'sent', smsc_id: null, receipt_stat: null, receipt_err: null, receipted: false, submitted: true },
      { body: 'cancelled', status: 'cancelled', smsc_id: null, receipt_stat: null, receipt_err: null, receipted: false, submitted: false },
      { body: 'waiting', status: 'pending', smsc_id: null, receipt_stat: null, receipt_err: null, receipted: false, submitted: false },
      { body: 'later', status: 'scheduled', smsc_id: null, receipt_stat: null, receipt_err: null, receipted: false, submitted: false },
    ]);
    // Multi-part messages keep their part rows; single ones have none.
    expect(await q.query(`SELECT message_id, part_number FROM message_parts WHERE message_id = ANY($1::uuid[]) ORDER BY part_number`, [[delivered, submitted, multi]])).toEqual([
      { message_id: multi, part_number: 1 },
      { message_id: multi, part_number: 2 },
    ]);
    expect(await q.query(`SELECT count(*)::int AS n FROM dispatch_batches`)).toEqual([{ n: 0 }]);
    // The watermark sits on the last message before the first waiting one (the claim in flight), and the
    // send's last message is the scheduled one; the send without messages has neither.
    const [mark] = await q.query(
      `SELECT (s.claimed_through_at, s.claimed_through_seq) = (m.dispatch_at, m.seq) AS on_submitted, s.last_seq = l.seq AS last_is_later
         FROM sends s, messages m, messages l WHERE s.id = $1 AND m.id = $2 AND l.id = $3`,
      [sendId, submitted, later],
    );
    expect(mark).toEqual({ on_submitted: true, last_is_later: true });
    expect(await q.query(`SELECT claimed_through_seq::int AS seq, last_seq FROM sends WHERE id = $1`, [emptySend])).toEqual([{ seq: 0, last_seq: null }]);
    // What a claim would take next, in order: the message that was in flight, then the waiting one (the cancelled one walked past).
    const next = await q.query(
      `SELECT m.id FROM messages m, sends s WHERE s.id = $1 AND m.send_id = s.id AND (m.dispatch_at, m.seq) > (s.claimed_through_at, s.claimed_through_seq)
          AND m.dispatch_at <= now() AND m.status IN ('pending', 'scheduled') ORDER BY m.dispatch_at, m.seq`,
      [sendId],
    );
    expect(next.map((r: { id: string }) => r.id)).toEqual([inFlight, waiting]);

    // And back: single parts are rows of message_parts again.
    await migration.down(q);
    expect(
      await q.query(`SELECT message_id, smsc_id, status, receipt_stat FROM message_parts WHERE message_id = ANY($1::uuid[]) AND total_parts = 1 ORDER BY smsc_id`, [
        [delivered, submitted, cancelled],
      ]),
    ).toEqual([
      { message_id: delivered, smsc_id: 'smsc-d', status: 'delivered', receipt_stat: 'DELIVRD' },
      { message_id: submitted, smsc_id: 'smsc-s', status: 'submitted', receipt_stat: null },
    ]);
    expect(await q.query(`SELECT body FROM messages WHERE send_id = $1 AND dispatched_at IS NOT NULL ORDER BY dispatch_at`, [sendId])).toEqual([
      { body: 'delivered' },
      { body: 'submitted' },
      { body: 'multi' },
      { body: 'cancelled' },
    ]);
    await migration.up(q);
  });
});
