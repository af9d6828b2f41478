import { DataSource } from 'typeorm';
import { uuid7 } from '../../src/common/ids/uuid7';
import { UnitOfWork } from '../../src/database/unit-of-work';
import { MessagesRepository, NewMessage } from '../../src/messaging/messages.repository';
import { createAccount, startTestApp, TestApp } from '../support/test-app';

/**
 * Accepting a send checks every message's send by key. On a small, analysed `sends` table PostgreSQL's
 * own plan for that foreign-key check is a sequential scan, run once per message inserted: a campaign on
 * a database with a hundred earlier sends read 88 send rows per message.
 */
describe('Storing a send’s messages', () => {
  let t: TestApp;
  let db: DataSource;

  beforeAll(async () => {
    t = await startTestApp({ appRole: 'api' });
    db = t.app.get(DataSource);
  });
  afterAll(() => t.close());

  it('finds each message’s send by key, however few sends the statistics say there are', async () => {
    const acct = await createAccount(t.app, { credits: 10_000, senders: ['Brand'] });
    for (let i = 0; i < 120; i++) {
      const res = await t.api.post('/v1/messages', {
        auth: acct.auth,
        body: { messages: [{ to: '0412345678', message: `earlier ${i}`, sender: 'Brand', scheduled: '2099-01-01 00:00:00' }] },
      });
      expect(res.status).toBe(200);
    }
    await db.query('ANALYZE sends');
    const [{ id: sendId }] = await db.query(`SELECT id FROM sends WHERE account_id = $1 ORDER BY id DESC LIMIT 1`, [acct.accountId]);
    const dispatchAt = new Date(Date.UTC(2099, 0, 1));
    const rows: NewMessage[] = Array.from({ length: 200 }, (_, i) => ({
      id: uuid7(),
      to: `614${String(10_000_000 + i)}`,
      sender: 'Brand',
      senderType: 'alpha',
      body: `later ${i}`,
      customRef: null,
      status: 'scheduled',
      encoding: 'gsm7',
      parts: 1,
      cost: 0,
      scheduledFor: dispatchAt,
      dispatchAt,
    }));

    const rolledBack = new Error('roll back');
    let reads: { seq: number; idx: number } | undefined;
    await expect(
      t.app.get(UnitOfWork).run(async (tx) => {
        await t.app.get(MessagesRepository).insertMany(acct.accountId, sendId as number, false, rows, tx);
        const [row] = await tx.manager.query(
          `SELECT coalesce(seq_tup_read, 0)::int AS seq, coalesce(idx_tup_fetch, 0)::int AS idx FROM pg_stat_xact_user_tables WHERE relname = 'sends'`,
        );
        reads = row;
        throw rolledBack;
      }),
    ).rejects.toBe(rolledBack);

    expect(reads).toEqual({ seq: 0, idx: expect.any(Number) });
    expect(reads!.idx).toBeGreaterThanOrEqual(200);
  });
});
