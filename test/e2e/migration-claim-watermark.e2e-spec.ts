import { DataSource, QueryRunner } from 'typeorm';
import { loadConfig } from '../../src/config/app-config';
import { ClaimWatermark1763702600000 } from '../../src/database/migrations/1763702600000-ClaimWatermark';
import { PartitionMessages1763706700000 } from '../../src/database/migrations/1763706700000-PartitionMessages';
import { MessageKeysPerStatement1763708700000 } from '../../src/database/migrations/1763708700000-MessageKeysPerStatement';
import { WebhookKeysPerStatement1763708800000 } from '../../src/database/migrations/1763708800000-WebhookKeysPerStatement';
import { typeormOptions } from '../../src/database/typeorm-options';
import { MESSAGE_STATUS, WITH_PART_STATUS } from '../../src/delivery/state/message-status';

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
    // Later migrations partitioned messages and their parts (and checked their keys per statement, with
    // functions the webhook tables share): back to the plain tables this one altered.
    await new WebhookKeysPerStatement1763708800000().down(q);
    await new MessageKeysPerStatement1763708700000().down(q);
    await new PartitionMessages1763706700000().down(q);
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

  it('sends claims in flight back to waiting, leaves parts as they are, and sets each send’s watermark; and back', async () => {
    const [{ id: accountId }] = await q.query(`INSERT INTO accounts (name, optout_code) VALUES ('migration', 'migr-cw1') RETURNING id`);
    const [{ id: sendId }] = await q.query(`INSERT INTO sends (account_id, kind) VALUES ($1, 'batch') RETURNING id`, [accountId]);
    const batch = '00000000-0000-4000-8000-000000000001';
    const delivered = await message(sendId, 'delivered', 0, 'delivered', { dispatched: true, claimedBy: batch });
    const submitted = await message(sendId, 'submitted', 1, 'sent', { dispatched: true, claimedBy: batch });
    const inFlight = await message(sendId, 'in-flight', 2, 'sent', { dispatched: true, claimedBy: batch });
    const multi = await message(sendId, 'multi', 3, 'sent', { dispatched: true, claimedBy: batch, parts: 2 });
    // Sent with no part and in no batch still listed (older than parts): it stays sent, never goes out again.
    await message(sendId, 'legacy', 3.5, 'sent', { dispatched: true, claimedBy: '00000000-0000-4000-8000-0000000000ff' });
    await message(sendId, 'cancelled', 4, 'cancelled', { dispatched: true });
    const waiting = await message(sendId, 'waiting', 5, 'pending');
    const later = await message(sendId, 'later', 120, 'scheduled');
    await q.query(`INSERT INTO dispatch_batches (batch_id) VALUES ($1)`, [batch]);
    await q.query(
      // carrier_id: a later migration's column, which this test's down() leaves in place.
      `INSERT INTO message_parts (message_id, part_number, total_parts, carrier_id, smsc_id, status, submitted_at, receipt_at, receipt_stat, receipt_err)
       VALUES ($1, 1, 1, 0, 'smsc-d', 'delivered', now() - interval '5 minutes', now() - interval '4 minutes', 'DELIVRD', '000'),
              ($2, 1, 1, 0, 'smsc-s', 'submitted', now() - interval '3 minutes', NULL, NULL, NULL),
              ($3, 1, 2, 0, 'smsc-m1', 'submitted', now(), NULL, NULL, NULL), ($3, 2, 2, 0, 'smsc-m2', 'delivered', now(), now(), 'DELIVRD', '000')`,
      [delivered, submitted, multi],
    );
    const [{ empty: emptySend }] = await q.query(`INSERT INTO sends (account_id, kind) VALUES ($1, 'batch') RETURNING id AS empty`, [accountId]);

    await migration.up(q);

    // Each message's status as the product reads it (its parts' once it has any), and the row's own.
    const statuses = `SELECT m.body, ${MESSAGE_STATUS} AS status, m.status AS row_status FROM messages m ${WITH_PART_STATUS} WHERE m.send_id = $1 ORDER BY m.dispatch_at`;
    expect(await q.query(statuses, [sendId])).toEqual([
      { body: 'delivered', status: 'delivered', row_status: 'delivered' },
      { body: 'submitted', status: 'sent', row_status: 'sent' },
      { body: 'in-flight', status: 'pending', row_status: 'pending' },
      { body: 'multi', status: 'sent', row_status: 'sent' },
      { body: 'legacy', status: 'sent', row_status: 'sent' },
      { body: 'cancelled', status: 'cancelled', row_status: 'cancelled' },
      { body: 'waiting', status: 'pending', row_status: 'pending' },
      { body: 'later', status: 'scheduled', row_status: 'scheduled' },
    ]);
    expect(await q.query(`SELECT count(*)::int AS n FROM message_parts WHERE message_id = ANY($1::uuid[])`, [[delivered, submitted, multi]])).toEqual([{ n: 4 }]);
    expect(await q.query(`SELECT count(*)::int AS n FROM dispatch_batches`)).toEqual([{ n: 0 }]);
    // Parts are read by key only: a small ANALYZE sample.
    const target = `SELECT attstattarget AS target FROM pg_attribute WHERE attrelid = 'message_parts'::regclass AND attname = 'smsc_id'`;
    expect(await q.query(target)).toEqual([{ target: 10 }]);
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

    // A message accepted and submitted in the new layout keeps its row status; its part says sent.
    await q.query(`UPDATE messages SET status = 'pending' WHERE id = $1`, [submitted]);

    // And back: the row holds the status again, and the message that went out has its dispatch time.
    await migration.down(q);
    expect(await q.query(target)).toEqual([{ target: -1 }]);
    expect(await q.query(`SELECT body, status, dispatched_at IS NOT NULL AS dispatched FROM messages WHERE send_id = $1 ORDER BY dispatch_at`, [sendId])).toEqual([
      { body: 'delivered', status: 'delivered', dispatched: true },
      { body: 'submitted', status: 'sent', dispatched: true },
      { body: 'in-flight', status: 'pending', dispatched: false },
      { body: 'multi', status: 'sent', dispatched: true },
      { body: 'legacy', status: 'sent', dispatched: true },
      { body: 'cancelled', status: 'cancelled', dispatched: true },
      { body: 'waiting', status: 'pending', dispatched: false },
      { body: 'later', status: 'scheduled', dispatched: false },
    ]);
    await migration.up(q);
  });
});
