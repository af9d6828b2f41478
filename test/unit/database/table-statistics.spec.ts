import type { DataSource } from 'typeorm';
import { TableStatistics } from '../../../src/database/table-statistics';

/** A DataSource that records statements and reports `rows` as every table's reltuples after ANALYZE. */
function fakeDataSource(rows: number) {
  const statements: string[] = [];
  const ds = {
    query: async (text: string) => {
      statements.push(text.startsWith('ANALYZE') ? text : 'reltuples');
      return text.startsWith('ANALYZE') ? [] : [{ rows }];
    },
  };
  return { statements, ds: ds as unknown as DataSource };
}

describe(TableStatistics.name, () => {
  it('analyses nothing until a table has 1000 new rows, then analyses that table once', async () => {
    const { statements, ds } = fakeDataSource(1000);
    const stats = new TableStatistics(ds);
    stats.grew('messages', 600);
    await stats.settled();
    expect(statements).toEqual([]);
    stats.grew('messages', 400);
    await stats.settled();
    expect(statements).toEqual(['ANALYZE messages', 'reltuples']);
  });

  it('then waits for the table to have grown tenfold', async () => {
    const { statements, ds } = fakeDataSource(100_000);
    const stats = new TableStatistics(ds);
    stats.grew('message_parts', 5000);
    await stats.settled();
    statements.length = 0;
    stats.grew('message_parts', 899_999);
    await stats.settled();
    expect(statements).toEqual([]);
    stats.grew('message_parts', 1);
    await stats.settled();
    expect(statements).toEqual(['ANALYZE message_parts', 'reltuples']);
  });

  it('runs one ANALYZE at a time and catches up with rows reported meanwhile', async () => {
    const { statements, ds } = fakeDataSource(0);
    const stats = new TableStatistics(ds);
    stats.grew('messages', 2000);
    stats.grew('message_parts', 2000);
    stats.grew('messages', 2000);
    await stats.settled();
    expect(statements.filter((s) => s.startsWith('ANALYZE'))).toEqual(['ANALYZE messages', 'ANALYZE messages', 'ANALYZE message_parts']);
  });

  it('keeps going when an ANALYZE fails', async () => {
    const stats = new TableStatistics({ query: async () => Promise.reject(new Error('connection lost')) } as unknown as DataSource);
    stats.grew('messages', 5000);
    await expect(stats.settled()).resolves.toBeUndefined();
  });
});
