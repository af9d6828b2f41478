import { DataSource } from 'typeorm';
import { isUniqueViolation } from '../../src/database/pg-errors';
import { keyLookupsOnly, sql } from '../../src/database/sql';
import { UnitOfWork } from '../../src/database/unit-of-work';
import { startTestApp, TestApp } from '../support/test-app';

/** sql(…, { prepared: true }) on the real driver: one named statement per text and connection, same results and errors as unnamed. */
describe('Prepared statements (sql with prepared: true)', () => {
  let t: TestApp;
  let db: DataSource;

  beforeAll(async () => {
    t = await startTestApp({ appRole: 'api' });
    db = t.app.get(DataSource);
    await db.query(`CREATE TABLE prepared_probe (id int PRIMARY KEY, label text NOT NULL)`);
  });
  afterAll(() => t.close());

  it('prepares a statement once per connection and reuses it, answering rows and counts as an unnamed one', async () => {
    const text = `INSERT INTO prepared_probe (id, label) SELECT i, 'n' || i FROM unnest($1::int[]) AS i RETURNING id`;
    const prepared = await t.app.get(UnitOfWork).run(async (tx) => {
      const first = await sql<{ id: number }>(tx, text, [[1, 2, 3]], { prepared: true });
      const second = await sql<{ id: number }>(tx, text, [[4]], { prepared: true });
      const named = await sql<{ name: string; statement: string }>(tx, `SELECT name, statement FROM pg_prepared_statements WHERE statement LIKE 'INSERT INTO prepared_probe%'`);
      return { first, second, named: named.rows };
    });
    expect(prepared.first).toEqual({ rows: [{ id: 1 }, { id: 2 }, { id: 3 }], rowCount: 3 });
    expect(prepared.second).toEqual({ rows: [{ id: 4 }], rowCount: 1 });
    expect(prepared.named).toHaveLength(1);
    expect(prepared.named[0].name).toMatch(/^stmt_[0-9a-f]{24}$/);
    const updated = await sql(db, `UPDATE prepared_probe SET label = $1 WHERE id <= $2`, ['x', 2], { prepared: true });
    expect(updated).toEqual({ rows: [], rowCount: 2 });
  });

  it('passes array parameters through PostgreSQL unchanged, awkward strings included, prepared or not', async () => {
    const texts = ['', 'with "quotes"', 'back\\slash', 'a,b', '{braces}', 'NULL', ' spaced ', 'line\nbreak', 'emoji 😀', null];
    for (const prepared of [false, true]) {
      const { rows } = await sql<{ text: string | null; n: number | null }>(
        db,
        `SELECT * FROM unnest($1::text[], $2::int[]) AS t(text, n)`,
        [texts, texts.map((_, i) => (i % 3 ? i : null))],
        { prepared },
      );
      expect(rows).toEqual(texts.map((text, i) => ({ text, n: i % 3 ? i : null })));
    }
  });

  it('fails as an unnamed statement does: a unique violation is recognised and the transaction rolls back', async () => {
    const attempt = t.app.get(UnitOfWork).run(async (tx) => {
      await sql(tx, `INSERT INTO prepared_probe (id, label) VALUES ($1, 'first')`, [10], { prepared: true });
      await sql(tx, `INSERT INTO prepared_probe (id, label) VALUES ($1, 'again')`, [10], { prepared: true });
    });
    const error = await attempt.then(
      () => null,
      (err: unknown) => err,
    );
    expect(isUniqueViolation(error)).toBe(true);
    expect(await db.query(`SELECT count(*)::int AS n FROM prepared_probe WHERE id = 10`)).toEqual([{ n: 0 }]);
  });

  it('keeps key-lookup settings to the transaction, generic plans included', async () => {
    const inside = await t.app.get(UnitOfWork).run(async (tx) => {
      await keyLookupsOnly(tx);
      return (
        await sql<Record<string, string>>(tx, `SELECT current_setting('plan_cache_mode') AS mode, current_setting('enable_seqscan') AS seqscan, current_setting('jit') AS jit`)
      ).rows[0];
    });
    expect(inside).toEqual({ mode: 'force_generic_plan', seqscan: 'off', jit: 'off' });
    const [after] = await db.query(`SELECT current_setting('plan_cache_mode') AS mode, current_setting('enable_seqscan') AS seqscan`);
    expect(after).toEqual({ mode: 'auto', seqscan: 'on' });
  });
});
