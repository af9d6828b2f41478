import { DataSource, EntityManager } from 'typeorm';
import { uuid7 } from '../../src/common/ids/uuid7';
import { UnitOfWork } from '../../src/database/unit-of-work';
import { MessagesRepository, NewMessage } from '../../src/messaging/messages.repository';
import { createAccount, startTestApp, TestApp } from '../support/test-app';

/**
 * A statistics query's figures over `work`, in the same transaction: pg_stat_xact_* also holds this
 * connection's earlier transactions not yet sent to the statistics, so the figures are a difference.
 */
async function countedDuring<T extends Record<string, number>>(tx: EntityManager, query: string, work: () => Promise<unknown>): Promise<T> {
  const read = async () => ((await tx.query(query)) as T[])[0];
  const before = await read();
  await work();
  const after = await read();
  return Object.fromEntries(Object.keys(after).map((k) => [k, after[k] - before[k]])) as T;
}

/**
 * Accepting a send checks its messages' send by key, once per statement (MessageKeysPerStatement), not
 * once per message. On a small, analysed `sends` table PostgreSQL's own plan for such a check is a
 * sequential scan: as a foreign key, run once per message, a campaign on a database with a hundred earlier
 * sends read 88 send rows per message.
 */
describe('Storing a send’s messages', () => {
  let t: TestApp;
  let db: DataSource;

  beforeAll(async () => {
    t = await startTestApp({ appRole: 'api' });
    db = t.app.get(DataSource);
  });
  afterAll(() => t.close());

  it('finds the messages’ send by key, once per statement, however few sends the statistics say there are', async () => {
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
        reads = await countedDuring<{ seq: number; idx: number }>(
          tx.manager,
          `SELECT coalesce(sum(seq_tup_read), 0)::int AS seq, coalesce(sum(idx_tup_fetch), 0)::int AS idx FROM pg_stat_xact_user_tables WHERE relname = 'sends'`,
          () => t.app.get(MessagesRepository).insertMany(acct.accountId, sendId as number, false, rows, tx),
        );
        throw rolledBack;
      }),
    ).rejects.toBe(rolledBack);

    expect(reads).toEqual({ seq: 0, idx: expect.any(Number) });
    expect(reads!.idx).toBeGreaterThan(0);
    expect(reads!.idx).toBeLessThan(rows.length);
  });

  const row = (i: number, over: Partial<NewMessage> = {}): NewMessage => ({
    id: uuid7(),
    to: `614${String(20_000_000 + i)}`,
    sender: 'Brand',
    senderType: 'alpha',
    body: `message ${i}`,
    customRef: null,
    status: 'pending',
    encoding: 'gsm7',
    parts: 1,
    cost: 5,
    scheduledFor: null,
    dispatchAt: new Date(Date.UTC(2099, 0, 1)),
    ...over,
  });

  async function newSend(accountId: number): Promise<number> {
    const [{ id }] = await db.query(`INSERT INTO sends (account_id, kind) VALUES ($1, 'batch') RETURNING id`, [accountId]);
    return Number(id);
  }

  it('stores every text exactly (backslashes, tabs, line breaks, a literal \\N, emoji), in order, and moves the send’s watermark to its last message in dispatch order', async () => {
    const acct = await createAccount(t.app, { credits: 10_000, senders: ['Brand'] });
    const sendId = await newSend(acct.accountId);
    const texts = ['back\\slash \\N', 'tab\there', 'line\nbreak\r\nwindows', 'quotes "x", {y}', 'Kia ora 👋 — é', '\\N'];
    const later = new Date(Date.UTC(2099, 0, 2));
    const rows = [
      ...texts.map((body, i) => row(i, { body, customRef: i % 2 ? `ref\t${i}\\` : null })),
      row(10, { status: 'scheduled', scheduledFor: later, dispatchAt: later }),
      row(11),
    ];
    await t.app.get(UnitOfWork).run((tx) => t.app.get(MessagesRepository).insertMany(acct.accountId, sendId, false, rows, tx));

    const stored: Array<{ id: string; body: string; custom_ref: string | null; scheduled_for: Date | null; status: string; is_test: boolean }> = await db.query(
      `SELECT id, body, custom_ref, scheduled_for, status, is_test FROM messages WHERE send_id = $1 ORDER BY seq`,
      [sendId],
    );
    expect(stored.map((m) => [m.id, m.body, m.custom_ref, m.scheduled_for?.toISOString() ?? null, m.status, m.is_test])).toEqual(
      rows.map((r) => [r.id, r.body, r.customRef, r.scheduledFor?.toISOString() ?? null, r.status, false]),
    );
    const [send] = await db.query(`SELECT s.last_at, s.last_seq, m.id FROM sends s JOIN messages m ON m.seq = s.last_seq WHERE s.id = $1`, [sendId]);
    expect([send.last_at.toISOString(), send.id]).toEqual([later.toISOString(), rows[6].id]);
  });

  it('stops the send’s watermark at the last stored of its latest messages, found by key on statistics from before them', async () => {
    const acct = await createAccount(t.app, { credits: 10_000, senders: ['Brand'] });
    const earlier = await newSend(acct.accountId);
    await t.app.get(UnitOfWork).run((tx) =>
      t.app.get(MessagesRepository).insertMany(
        acct.accountId,
        earlier,
        false,
        Array.from({ length: 3000 }, (_, i) => row(i)),
        tx,
      ),
    );
    await db.query('ANALYZE messages');
    const sendId = await newSend(acct.accountId);
    const rows = Array.from({ length: 2000 }, (_, i) => row(i));
    let read: number | undefined;
    await t.app.get(UnitOfWork).run(async (tx) => {
      // Index entries returned by scans of the messages' partitions.
      ({ n: read } = await countedDuring<{ n: number }>(
        tx.manager,
        `SELECT coalesce(sum(pg_stat_get_xact_tuples_returned(i.indexrelid)), 0)::int AS n
           FROM pg_index i JOIN pg_class c ON c.oid = i.indrelid WHERE c.relname LIKE 'messages%'`,
        () => t.app.get(MessagesRepository).insertMany(acct.accountId, sendId, false, rows, tx),
      ));
    });
    // Every row has the same dispatch time: the last stored has the greatest seq.
    const [send] = await db.query(`SELECT m.id FROM sends s JOIN messages m ON m.seq = s.last_seq AND m.dispatch_at = s.last_at WHERE s.id = $1`, [sendId]);
    expect(send.id).toBe(rows[rows.length - 1].id);
    // One lookup by key. The query before this one looked for the send's latest message among its rows:
    // here it read 1 entry too, but in bench:dispatch (five sends of 10000 stored at once, statistics from
    // before them) it read 42100 entries of the primary key a send.
    expect(read).toBeGreaterThan(0);
    expect(read).toBeLessThan(10);
  });

  it('stores nothing when PostgreSQL refuses a row, and the connection serves the next transaction', async () => {
    const acct = await createAccount(t.app, { credits: 10_000, senders: ['Brand'] });
    const sendId = await newSend(acct.accountId);
    const rows = Array.from({ length: 5000 }, (_, i) => row(i));
    rows[4000] = { ...rows[4000], id: rows[10].id };
    const messages = t.app.get(MessagesRepository);
    await expect(t.app.get(UnitOfWork).run((tx) => messages.insertMany(acct.accountId, sendId, false, rows, tx))).rejects.toThrow(/duplicate key/);
    await expect(db.query(`SELECT count(*)::int AS n FROM messages WHERE send_id = $1`, [sendId])).resolves.toEqual([{ n: 0 }]);

    const again = Array.from({ length: 3 }, (_, i) => row(i));
    await t.app.get(UnitOfWork).run((tx) => messages.insertMany(acct.accountId, sendId, false, again, tx));
    await expect(db.query(`SELECT count(*)::int AS n FROM messages WHERE send_id = $1`, [sendId])).resolves.toEqual([{ n: 3 }]);
  });

  it('stores nothing when the send named is another account’s: the COPY’s statement check refuses it', async () => {
    const [own, other] = [await createAccount(t.app, { credits: 10_000, senders: ['Brand'] }), await createAccount(t.app, { credits: 10_000, senders: ['Brand'] })];
    const othersSend = await newSend(other.accountId);
    const rows = Array.from({ length: 1200 }, (_, i) => row(i));
    await expect(t.app.get(UnitOfWork).run((tx) => t.app.get(MessagesRepository).insertMany(own.accountId, othersSend, false, rows, tx))).rejects.toThrow(
      'insert or update on table "messages" violates foreign key constraint "messages_send_account_fkey"',
    );
    await expect(db.query(`SELECT count(*)::int AS n FROM messages WHERE send_id = $1`, [othersSend])).resolves.toEqual([{ n: 0 }]);
  });

  it('stores nothing when a row cannot be written (its error, not the abandoned COPY’s, is the one thrown)', async () => {
    const acct = await createAccount(t.app, { credits: 10_000, senders: ['Brand'] });
    const sendId = await newSend(acct.accountId);
    const rows = Array.from({ length: 5000 }, (_, i) => row(i));
    rows[4500] = { ...rows[4500], dispatchAt: new Date(Number.NaN) };
    await expect(t.app.get(UnitOfWork).run((tx) => t.app.get(MessagesRepository).insertMany(acct.accountId, sendId, false, rows, tx))).rejects.toBeInstanceOf(RangeError);
    await expect(db.query(`SELECT count(*)::int AS n FROM messages WHERE send_id = $1`, [sendId])).resolves.toEqual([{ n: 0 }]);
  });
});
