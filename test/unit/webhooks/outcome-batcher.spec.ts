import { OutcomeBatcher } from '../../../src/webhooks/outcome-batcher';
import { manualWrites, tick } from '../../support/manual-writes';

describe(OutcomeBatcher.name, () => {
  beforeEach(() => jest.useFakeTimers({ doNotFake: ['setImmediate'] }));
  afterEach(() => jest.useRealTimers());

  it('writes what arrived within afterMs of the first item in one call', async () => {
    const { calls, write } = manualWrites();
    const batcher = new OutcomeBatcher(write, () => undefined, 100, 10);
    batcher.add(1);
    batcher.add(2);
    jest.advanceTimersByTime(9);
    await tick();
    expect(calls).toHaveLength(0);
    jest.advanceTimersByTime(1);
    await tick();
    expect(calls.map((c) => c.items)).toEqual([[1, 2]]);
  });

  it('writes at once when `every` items are waiting, and the next group waits for its own timer', async () => {
    const { calls, write } = manualWrites();
    const batcher = new OutcomeBatcher(write, () => undefined, 2, 1000);
    batcher.add(1);
    batcher.add(2);
    batcher.add(3);
    await tick();
    expect(calls.map((c) => c.items)).toEqual([[1, 2]]);
    calls[0].finish();
    await tick();
    expect(calls).toHaveLength(1);
    jest.advanceTimersByTime(1000);
    await tick();
    expect(calls.map((c) => c.items)).toEqual([[1, 2], [3]]);
  });

  it('runs one write at a time, in order, and flush resolves only when every write started has ended', async () => {
    const { calls, write } = manualWrites();
    const batcher = new OutcomeBatcher(write, () => undefined, 1, 1000);
    batcher.add(1);
    batcher.add(2);
    let flushed = false;
    const flushing = batcher.flush().then(() => (flushed = true));
    await tick();
    expect(calls.map((c) => c.items)).toEqual([[1]]);
    calls[0].finish();
    await tick();
    expect(calls.map((c) => c.items)).toEqual([[1], [2]]);
    expect(flushed).toBe(false);
    calls[1].finish();
    await flushing;
    expect(flushed).toBe(true);
  });

  it('reports a failed write and still runs the writes after it', async () => {
    const { calls, write } = manualWrites();
    const failures: unknown[] = [];
    const batcher = new OutcomeBatcher(write, (err) => failures.push(err), 1, 1000);
    batcher.add(1);
    batcher.add(2);
    await tick();
    calls[0].finish(new Error('database gone'));
    await tick();
    expect(failures).toEqual([new Error('database gone')]);
    expect(calls.map((c) => c.items)).toEqual([[1], [2]]);
    calls[1].finish();
    await batcher.flush();
    expect(failures).toHaveLength(1);
  });

  it('still runs the writes after a failed one when reporting the failure throws', async () => {
    const { calls, write } = manualWrites();
    const batcher = new OutcomeBatcher(
      write,
      () => {
        throw new Error('logger gone');
      },
      1,
      1000,
    );
    batcher.add(1);
    batcher.add(2);
    await tick();
    calls[0].finish(new Error('database gone'));
    await tick();
    expect(calls.map((c) => c.items)).toEqual([[1], [2]]);
    calls[1].finish();
    await expect(batcher.flush()).resolves.toBeUndefined();
  });

  it('flushes what is waiting before its timer, and a flush with nothing waiting writes nothing', async () => {
    const { calls, write } = manualWrites();
    const batcher = new OutcomeBatcher(write, () => undefined, 100, 1000);
    batcher.add(7);
    const flushing = batcher.flush();
    await tick();
    expect(calls.map((c) => c.items)).toEqual([[7]]);
    calls[0].finish();
    await flushing;
    await batcher.flush();
    expect(calls).toHaveLength(1);
    // The flushed group's timer is gone: an item added later waits its own afterMs.
    jest.advanceTimersByTime(600);
    batcher.add(8);
    jest.advanceTimersByTime(400);
    await tick();
    expect(calls).toHaveLength(1);
    jest.advanceTimersByTime(600);
    await tick();
    expect(calls.map((c) => c.items)).toEqual([[7], [8]]);
  });
});
