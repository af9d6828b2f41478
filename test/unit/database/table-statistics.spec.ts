import type { DataSource } from 'typeorm';
import { MAX_WAIT_MS, QUIET_MS, TableStatistics } from '../../../src/database/table-statistics';

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

/** Lets QUIET_MS pass without new rows, then waits for the ANALYZE it started. */
async function quietPeriod(stats: TableStatistics): Promise<void> {
  await jest.advanceTimersByTimeAsync(QUIET_MS);
  await stats.settled();
}

describe(TableStatistics.name, () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('analyses nothing until a table has 1000 new rows, then analyses that table once', async () => {
    const { statements, ds } = fakeDataSource(1000);
    const stats = new TableStatistics(ds);
    stats.grew('messages', 600);
    await quietPeriod(stats);
    expect(statements).toEqual([]);
    stats.grew('messages', 400);
    await quietPeriod(stats);
    expect(statements).toEqual(['ANALYZE messages', 'reltuples']);
    await quietPeriod(stats);
    expect(statements).toEqual(['ANALYZE messages', 'reltuples']);
  });

  it('then waits for the table to have grown tenfold', async () => {
    const { statements, ds } = fakeDataSource(100_000);
    const stats = new TableStatistics(ds);
    stats.grew('message_parts', 5000);
    await quietPeriod(stats);
    statements.length = 0;
    stats.grew('message_parts', 899_999);
    await quietPeriod(stats);
    expect(statements).toEqual([]);
    stats.grew('message_parts', 1);
    await quietPeriod(stats);
    expect(statements).toEqual(['ANALYZE message_parts', 'reltuples']);
  });

  it('waits until no rows were reported for a quiet period, so a campaign is not slowed by it', async () => {
    const { statements, ds } = fakeDataSource(0);
    const stats = new TableStatistics(ds);
    stats.grew('messages', 2000);
    for (let i = 0; i < 5; i++) {
      await jest.advanceTimersByTimeAsync(QUIET_MS - 100);
      stats.grew('message_parts', 10);
    }
    expect(statements).toEqual([]);
    await jest.advanceTimersByTimeAsync(QUIET_MS - 1);
    expect(statements).toEqual([]);
    await jest.advanceTimersByTimeAsync(1);
    await stats.settled();
    expect(statements).toEqual(['ANALYZE messages', 'reltuples']);
  });

  it('analyses message_parts as soon as it is due (the receipt statement plans by it), while messages waits for the pause', async () => {
    const { statements, ds } = fakeDataSource(0);
    const stats = new TableStatistics(ds);
    stats.grew('messages', 10_000);
    await jest.advanceTimersByTimeAsync(QUIET_MS / 2);
    stats.grew('message_parts', 1000);
    await jest.advanceTimersByTimeAsync(0);
    await stats.settled();
    expect(statements).toEqual(['ANALYZE message_parts', 'reltuples']);
    for (let i = 0; i < 3; i++) {
      await jest.advanceTimersByTimeAsync(QUIET_MS / 2);
      stats.grew('message_parts', 10);
    }
    expect(statements).toEqual(['ANALYZE message_parts', 'reltuples']);
    await quietPeriod(stats);
    expect(statements).toEqual(['ANALYZE message_parts', 'reltuples', 'ANALYZE messages', 'reltuples']);
  });

  it('runs at the latest MAX_WAIT_MS after it became due, however busy the writers are', async () => {
    const { statements, ds } = fakeDataSource(0);
    const stats = new TableStatistics(ds);
    stats.grew('messages', 2000);
    for (let waited = 0; waited < MAX_WAIT_MS - 100; waited += 100) {
      await jest.advanceTimersByTimeAsync(100);
      stats.grew('message_parts', 1);
    }
    expect(statements).toEqual([]);
    await jest.advanceTimersByTimeAsync(100);
    await stats.settled();
    expect(statements).toEqual(['ANALYZE messages', 'reltuples']);
  });

  it('runs one ANALYZE at a time and analyses rows reported meanwhile after the next quiet period', async () => {
    let release: () => void = () => undefined;
    const statements: string[] = [];
    const ds = {
      query: async (text: string) => {
        statements.push(text);
        if (text === 'ANALYZE messages' && statements.length === 1) await new Promise<void>((resolve) => (release = resolve));
        return text.startsWith('ANALYZE') ? [] : [{ rows: 0 }];
      },
    } as unknown as DataSource;
    const stats = new TableStatistics(ds);
    stats.grew('messages', 2000);
    await jest.advanceTimersByTimeAsync(QUIET_MS);
    expect(statements).toEqual(['ANALYZE messages']);
    stats.grew('messages', 2000);
    stats.grew('message_parts', 2000);
    await jest.advanceTimersByTimeAsync(QUIET_MS * 3);
    expect(statements).toEqual(['ANALYZE messages']);
    release();
    await stats.settled();
    await quietPeriod(stats);
    expect(statements.filter((s) => s.startsWith('ANALYZE'))).toEqual(['ANALYZE messages', 'ANALYZE messages', 'ANALYZE message_parts']);
  });

  it('keeps going when an ANALYZE fails', async () => {
    const stats = new TableStatistics({ query: async () => Promise.reject(new Error('connection lost')) } as unknown as DataSource);
    stats.grew('messages', 5000);
    await quietPeriod(stats);
    await expect(stats.settled()).resolves.toBeUndefined();
  });

  it('starts nothing once the module is destroyed', async () => {
    const { statements, ds } = fakeDataSource(0);
    const stats = new TableStatistics(ds);
    stats.grew('messages', 5000);
    await stats.onModuleDestroy();
    await quietPeriod(stats);
    stats.grew('messages', 5000);
    await quietPeriod(stats);
    expect(statements).toEqual([]);
  });
});
