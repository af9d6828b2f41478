import { DataSource } from 'typeorm';
import { copyChunks, copyField } from '../../src/database/copy-rows';
import { UnitOfWork } from '../../src/database/unit-of-work';
import { startTestApp, TestApp } from '../support/test-app';

/** copyChunks against PostgreSQL: rows made a chunk at a time, stored by one COPY in the caller's transaction. */
describe('copyChunks', () => {
  let t: TestApp;
  let db: DataSource;
  let uow: UnitOfWork;

  beforeAll(async () => {
    t = await startTestApp({ appRole: 'api' });
    db = t.app.get(DataSource);
    uow = t.app.get(UnitOfWork);
    await db.query(`CREATE TABLE copy_chunks_probe (n int PRIMARY KEY CHECK (n >= 0), label text NOT NULL, seq bigserial)`);
  });
  beforeEach(() => db.query('TRUNCATE copy_chunks_probe'));
  afterAll(async () => {
    await db.query('DROP TABLE copy_chunks_probe');
    await t.close();
  });

  /** A producer of the given chunks (each a list of row numbers), noting how often it was asked. */
  const producer = (chunks: number[][]) => {
    const asked = { times: 0 };
    const next = () => {
      const chunk = chunks[asked.times++];
      return chunk === undefined ? null : chunk.map((n) => [String(n), copyField(`row ${n}\t"tab"\\`)]);
    };
    return { next, asked };
  };

  it('stores every chunk’s rows in order, skipping empty chunks, with the hooks around the COPY', async () => {
    const { next, asked } = producer([[0, 1], [], [2], [3, 4, 5]]);
    const hooks: string[] = [];

    const copied = await uow.run((tx) =>
      copyChunks(tx, 'copy_chunks_probe', ['n', 'label'], next, {
        beforeCopy: async () => void hooks.push('before'),
        whileStoring: async () => void hooks.push(`while, asked ${asked.times}`),
      }),
    );

    expect(copied).toBe(6);
    expect(hooks).toEqual(['before', 'while, asked 5']);
    const rows = await db.query(`SELECT n, label FROM copy_chunks_probe ORDER BY seq`);
    expect(rows).toEqual([0, 1, 2, 3, 4, 5].map((n) => ({ n, label: `row ${n}\t"tab"\\` })));
  });

  it('runs no COPY and neither hook when no chunk holds a row', async () => {
    const { next, asked } = producer([[], []]);
    const hooks: string[] = [];

    const copied = await uow.run((tx) =>
      copyChunks(tx, 'copy_chunks_probe', ['n', 'label'], next, { beforeCopy: async () => void hooks.push('before'), whileStoring: async () => void hooks.push('while') }),
    );

    expect([copied, asked.times, hooks]).toEqual([0, 3, []]);
  });

  it('rejects with PostgreSQL’s refusal of a later chunk’s row, and the transaction keeps none of the rows', async () => {
    const { next } = producer([[0, 1], [2, -1], [3]]);

    await expect(uow.run((tx) => copyChunks(tx, 'copy_chunks_probe', ['n', 'label'], next))).rejects.toMatchObject({ code: '23514' });

    expect(await db.query(`SELECT count(*)::int AS n FROM copy_chunks_probe`)).toEqual([{ n: 0 }]);
  });

  it('rejects with the producer’s own error mid-stream, keeping nothing, and leaves the connection usable', async () => {
    let asked = 0;
    const next = () => {
      if (++asked === 2) throw new Error('composing failed');
      return asked > 3 ? null : [[String(asked), 'x']];
    };

    await expect(uow.run((tx) => copyChunks(tx, 'copy_chunks_probe', ['n', 'label'], next))).rejects.toThrow('composing failed');

    expect(await db.query(`SELECT count(*)::int AS n FROM copy_chunks_probe`)).toEqual([{ n: 0 }]);
    expect(await uow.run((tx) => copyChunks(tx, 'copy_chunks_probe', ['n', 'label'], producer([[7]]).next))).toBe(1);
  });
});
