import { GroupCommit } from '../../../../src/common/batching/group-commit';
import { manualWrites, tick } from '../../../support/manual-writes';

describe(GroupCommit.name, () => {
  beforeEach(() => jest.useFakeTimers({ doNotFake: ['setImmediate'] }));
  afterEach(() => jest.useRealTimers());

  it('writes what arrived within maxWaitMs of the first item in one call, and resolves each add after it', async () => {
    const { calls, write } = manualWrites();
    const group = new GroupCommit(write, { maxItems: 100, maxWaitMs: 10 });
    let resolved = 0;
    const adds = [group.add(1), group.add([2, 3])].map((p) => p.then(() => resolved++));
    jest.advanceTimersByTime(9);
    expect(calls).toHaveLength(0);
    jest.advanceTimersByTime(1);
    expect(calls.map((c) => c.items)).toEqual([[1, 2, 3]]);
    await tick();
    expect(resolved).toBe(0);
    calls[0].finish();
    await Promise.all(adds);
    expect(resolved).toBe(2);
  });

  it('writes at once when maxItems are waiting', () => {
    const { calls, write } = manualWrites();
    const group = new GroupCommit(write, { maxItems: 3, maxWaitMs: 1000 });
    void group.add([1, 2]);
    expect(calls).toHaveLength(0);
    void group.add(3);
    expect(calls.map((c) => c.items)).toEqual([[1, 2, 3]]);
  });

  it('rejects the adds of a failed write only', async () => {
    const { calls, write } = manualWrites();
    const group = new GroupCommit(write, { maxItems: 1, maxWaitMs: 10 });
    const first = group.add(1);
    calls[0].finish(new Error('database gone'));
    await expect(first).rejects.toThrow('database gone');
    const second = group.add(2);
    calls[1].finish();
    await expect(second).resolves.toBeUndefined();
  });

  it('runs one write at a time: a group due during a write is written, all of it, as soon as that write ends', async () => {
    const { calls, write } = manualWrites();
    const group = new GroupCommit(write, { maxItems: 2, maxWaitMs: 10 });
    const adds = [group.add([1, 2])];
    expect(calls.map((c) => c.items)).toEqual([[1, 2]]);
    // Full, and more, while the first write is under way: still no second write.
    adds.push(group.add([3, 4]), group.add(5));
    jest.advanceTimersByTime(50);
    expect(calls).toHaveLength(1);
    calls[0].finish();
    await tick();
    expect(calls.map((c) => c.items)).toEqual([
      [1, 2],
      [3, 4, 5],
    ]);
    calls[1].finish();
    await Promise.all(adds);
  });

  it('writes a group whose wait ran out during a write as soon as that write ends', async () => {
    const { calls, write } = manualWrites();
    const group = new GroupCommit(write, { maxItems: 10, maxWaitMs: 10 });
    void group.add(1);
    jest.advanceTimersByTime(10);
    void group.add(2);
    // Its 10 ms pass while the first write is still under way: due by time, not by count.
    jest.advanceTimersByTime(10);
    expect(calls).toHaveLength(1);
    calls[0].finish();
    await tick();
    expect(calls.map((c) => c.items)).toEqual([[1], [2]]);
  });

  it('keeps maxWaitMs for a group that arrives during a write but is not yet due when it ends', async () => {
    const { calls, write } = manualWrites();
    const group = new GroupCommit(write, { maxItems: 10, maxWaitMs: 10 });
    void group.add(1);
    jest.advanceTimersByTime(10);
    void group.add(2);
    calls[0].finish();
    await tick();
    expect(calls).toHaveLength(1);
    jest.advanceTimersByTime(10);
    expect(calls.map((c) => c.items)).toEqual([[1], [2]]);
    calls[1].finish();
    await tick();
    // Nothing left over: no empty write later.
    jest.advanceTimersByTime(100);
    expect(calls).toHaveLength(2);
  });
});
