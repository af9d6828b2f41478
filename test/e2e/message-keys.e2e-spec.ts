import { DataSource, QueryRunner } from 'typeorm';
import { loadConfig } from '../../src/config/app-config';
import { typeormOptions } from '../../src/database/typeorm-options';

/**
 * A message's send and a part's account are checked once per statement (the migration
 * MessageKeysPerStatement), with everything their foreign keys promised: the check, the lock against a
 * concurrent delete, the cascade and keys that never change.
 */
describe('Message keys checked per statement', () => {
  let dataSource: DataSource;
  let q: QueryRunner;

  // A time-ordered id, as the service makes them (so the row lands in this month's partition).
  const newId = `(lpad(to_hex((extract(epoch FROM clock_timestamp()) * 1000)::bigint), 12, '0') || substr(replace(gen_random_uuid()::text, '-', ''), 13))::uuid`;

  beforeAll(async () => {
    // The file's own copy of the migrated template (per-file-database.ts set DATABASE_URL).
    dataSource = new DataSource({ ...typeormOptions(loadConfig(process.env), { entities: [], migrations: [] }), extra: { max: 4 } });
    await dataSource.initialize();
  });

  beforeEach(async () => {
    q = dataSource.createQueryRunner();
    await q.startTransaction();
  });

  afterEach(async () => {
    await q.rollbackTransaction();
    await q.release();
  });

  afterAll(async () => {
    await dataSource?.destroy();
  });

  async function account(runner: QueryRunner, name: string): Promise<number> {
    const [{ id }] = await runner.query(`INSERT INTO accounts (name, optout_code) VALUES ($1, $2) RETURNING id`, [name, `keys-${name}-${Date.now()}-${Math.random()}`]);
    return id;
  }

  async function send(runner: QueryRunner, accountId: number): Promise<number> {
    const [{ id }] = await runner.query(`INSERT INTO sends (account_id, kind) VALUES ($1, 'batch') RETURNING id`, [accountId]);
    return Number(id);
  }

  /** `count` messages of each (account, send) pair, in one statement; their ids. */
  async function insertMessages(runner: QueryRunner, pairs: Array<[number, number]>, count = 3): Promise<string[]> {
    const rows: Array<{ id: string }> = await runner.query(
      `INSERT INTO messages (id, account_id, send_id, to_number, sender, sender_type, body, status, encoding, parts, cost, is_test, dispatch_at)
       SELECT ${newId}, p.account_id, p.send_id, '6141234' || lpad(g::text, 4, '0'), 'Brand', 'alpha', 'Hi', 'pending', 'gsm7', 1, 100, false, now()
         FROM unnest($1::int[], $2::bigint[]) AS p(account_id, send_id), generate_series(1, $3) AS g
       RETURNING id`,
      [pairs.map(([a]) => a), pairs.map(([, s]) => s), count],
    );
    return rows.map((r) => r.id);
  }

  function insertParts(runner: QueryRunner, messageIds: string[], accountIds: number[]): Promise<unknown> {
    return runner.query(
      `INSERT INTO message_parts (message_id, part_number, total_parts, status, account_id, carrier_id)
       SELECT m, 1, 1, 'submitted', a, 0 FROM unnest($1::uuid[], $2::int[]) AS t(m, a)`,
      [messageIds, accountIds],
    );
  }

  async function savepointed(work: () => Promise<unknown>): Promise<unknown> {
    await q.query('SAVEPOINT attempt');
    try {
      return await work();
    } finally {
      await q.query('ROLLBACK TO SAVEPOINT attempt');
    }
  }

  const count = async (sql: string, params: unknown[]) => ((await q.query(sql, params)) as Array<{ n: number }>)[0].n;

  it("fails a statement when one of its messages names another account's send, or a send that does not exist", async () => {
    const [own, other] = [await account(q, 'own'), await account(q, 'other')];
    const [ownSend, otherSend] = [await send(q, own), await send(q, other)];
    await expect(
      savepointed(() =>
        insertMessages(q, [
          [own, ownSend],
          [own, otherSend],
        ]),
      ),
    ).rejects.toThrow('insert or update on table "messages" violates foreign key constraint "messages_send_account_fkey"');
    await expect(savepointed(() => insertMessages(q, [[own, ownSend + 1_000_000]]))).rejects.toThrow('violates foreign key constraint "messages_send_account_fkey"');
    expect(
      await insertMessages(q, [
        [own, ownSend],
        [other, otherSend],
      ]),
    ).toHaveLength(6);
  });

  it('fails a statement of parts when one names an account that does not exist', async () => {
    const own = await account(q, 'own');
    const ids = await insertMessages(q, [[own, await send(q, own)]]);
    await expect(savepointed(() => insertParts(q, ids, [own, own, -1]))).rejects.toThrow(
      'insert or update on table "message_parts" violates foreign key constraint "message_parts_account_id_fkey"',
    );
    await insertParts(q, ids, [own, own, own]);
    expect(await count(`SELECT count(*)::int AS n FROM message_parts WHERE message_id = ANY($1::uuid[])`, [ids])).toBe(3);
  });

  it('deletes a send with its messages, and an account with its sends, messages and parts', async () => {
    const [own, other] = [await account(q, 'own'), await account(q, 'other')];
    const [first, second, others] = [await send(q, own), await send(q, own), await send(q, other)];
    const ids = await insertMessages(q, [
      [own, first],
      [own, second],
      [other, others],
    ]);
    await insertParts(q, ids, [own, own, own, own, own, own, other, other, other]);
    await q.query(`DELETE FROM sends WHERE id = $1`, [first]);
    expect(await count(`SELECT count(*)::int AS n FROM messages WHERE send_id = $1`, [first])).toBe(0);
    expect(await count(`SELECT count(*)::int AS n FROM messages WHERE account_id = $1`, [own])).toBe(3);
    await q.query(`DELETE FROM accounts WHERE id = $1`, [own]);
    expect(await count(`SELECT count(*)::int AS n FROM messages WHERE account_id = $1`, [own])).toBe(0);
    expect(await count(`SELECT count(*)::int AS n FROM message_parts WHERE account_id = $1`, [own])).toBe(0);
    expect(await count(`SELECT count(*)::int AS n FROM message_parts WHERE account_id = $1`, [other])).toBe(3);
  });

  type Keys = { id: string; otherSend: number; ownSend: number; other: number };
  it.each<[string, (k: Keys) => [string, unknown[]], string, string]>([
    ['a message to another send', (k) => [`UPDATE messages SET send_id = $2 WHERE id = $1`, [k.id, k.otherSend]], 'messages', 'messages_send_account_fkey'],
    ['a message to another account', (k) => [`UPDATE messages SET account_id = $2 WHERE id = $1`, [k.id, k.other]], 'messages', 'messages_send_account_fkey'],
    ['a part to another account', (k) => [`UPDATE message_parts SET account_id = $2 WHERE message_id = $1`, [k.id, k.other]], 'message_parts', 'message_parts_account_id_fkey'],
    ['a send to another account', (k) => [`UPDATE sends SET account_id = $2 WHERE id = $1`, [k.ownSend, k.other]], 'sends', 'messages_send_account_fkey'],
  ])('refuses to move %s', async (_, update, table, constraint) => {
    const [own, other] = [await account(q, 'own'), await account(q, 'other')];
    const [ownSend, otherSend] = [await send(q, own), await send(q, other)];
    const [id] = await insertMessages(q, [[own, ownSend]], 1);
    await insertParts(q, [id], [own]);
    const [sql, params] = update({ id, otherSend, ownSend, other });
    await expect(savepointed(() => q.query(sql, params))).rejects.toThrow(`update on table "${table}" would change a key checked by constraint "${constraint}"`);
    // Setting a key to the value it has, or any other column, is no change.
    await q.query(`UPDATE messages SET account_id = account_id, send_id = send_id, status = 'scheduled' WHERE id = $1`, [id]);
    await q.query(`UPDATE message_parts SET account_id = account_id, status = 'delivered' WHERE message_id = $1`, [id]);
    await q.query(`UPDATE sends SET account_id = account_id, id = id WHERE id = $1`, [ownSend]);
  });

  // Committed rows, in connections of their own: a writer leaves its rows uncommitted while a deleter
  // removes what they name; the delete must wait for the writer, then take its rows.
  it.each([
    ['the accounts its new parts name', 'message_parts', `DELETE FROM accounts WHERE id = $1`],
    ['the sends its new messages name', 'messages', `DELETE FROM sends WHERE account_id = $1`],
  ])('holds %s until commit, so a concurrent delete waits and then takes them', async (_, table, deletion) => {
    const setup = dataSource.createQueryRunner();
    const writer = dataSource.createQueryRunner();
    const deleter = dataSource.createQueryRunner();
    const own = await account(setup, 'concurrent');
    try {
      const sendId = await send(setup, own);
      await writer.startTransaction();
      let written: string[];
      if (table === 'message_parts') {
        written = await insertMessages(setup, [[own, sendId]], 1);
        await insertParts(writer, written, [own]);
      } else {
        written = await insertMessages(writer, [[own, sendId]], 1);
      }
      let deleted = false;
      const deleting = deleter.query(deletion, [own]).then(() => (deleted = true));
      await new Promise((r) => setTimeout(r, 300));
      expect(deleted).toBe(false);
      await writer.commitTransaction();
      await deleting;
      const key = table === 'messages' ? 'id' : 'message_id';
      expect(await setup.query(`SELECT count(*)::int AS n FROM ${table} WHERE ${key} = $1`, [written[0]])).toEqual([{ n: 0 }]);
    } finally {
      if (writer.isTransactionActive) await writer.rollbackTransaction();
      await setup.query(`DELETE FROM accounts WHERE id = $1`, [own]);
      await Promise.all([setup.release(), writer.release(), deleter.release()]);
    }
  });
});
