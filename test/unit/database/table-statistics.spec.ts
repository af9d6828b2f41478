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

  it('runs one ANALYZE at a time; a message_parts due meanwhile goes right after it, messages after the next pause', async () => {
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
    stats.grew('message_parts', 10); // the writes go on
    release();
    await stats.settled();
    await jest.advanceTimersByTimeAsync(0);
    await stats.settled();
    expect(statements.filter((s) => s.startsWith('ANALYZE'))).toEqual(['ANALYZE messages', 'ANALYZE message_parts']);
    await quietPeriod(stats);
    expect(statements.filter((s) => s.startsWith('ANALYZE'))).toEqual(['ANALYZE messages', 'ANALYZE message_parts', 'ANALYZE messages']);
  });

  it('keeps going when an ANALYZE fails: the next rows bring the next attempt', async () => {
    let attempts = 0;
    const stats = new TableStatistics({
      query: async () => {
        attempts++;
        throw new Error('connection lost');
      },
    } as unknown as DataSource);
    stats.grew('messages', 5000);
    await quietPeriod(stats);
    expect(attempts).toBe(1);
    stats.grew('messages', 1000);
    await quietPeriod(stats);
    expect(attempts).toBe(2);
  });

  it('stops between tables when the module is destroyed during an ANALYZE', async () => {
    let gate: Promise<void> = Promise.resolve();
    let open: () => void = () => undefined;
    const closeGate = () => (gate = new Promise<void>((resolve) => (open = resolve)));
    const statements: string[] = [];
    const ds = {
      query: async (text: string) => {
        statements.push(text);
        if (text.startsWith('ANALYZE')) await gate;
        return text.startsWith('ANALYZE') ? [] : [{ rows: 0 }];
      },
    } as unknown as DataSource;
    const analyses = () => statements.filter((s) => s.startsWith('ANALYZE'));
    const stats = new TableStatistics(ds);
    closeGate();
    stats.grew('message_parts', 2000);
    await jest.advanceTimersByTimeAsync(0);
    expect(analyses()).toEqual(['ANALYZE message_parts']);
    // Both due while it runs, and the writes pause: the next round takes both, message_parts first.
    stats.grew('messages', 2000);
    stats.grew('message_parts', 2000);
    await jest.advanceTimersByTimeAsync(QUIET_MS * 2);
    const first = open;
    closeGate();
    first();
    await stats.settled();
    await jest.advanceTimersByTimeAsync(0);
    expect(analyses()).toEqual(['ANALYZE message_parts', 'ANALYZE message_parts']);
    const destroyed = stats.onModuleDestroy();
    open();
    await destroyed;
    await quietPeriod(stats);
    expect(analyses()).toEqual(['ANALYZE message_parts', 'ANALYZE message_parts']);
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
