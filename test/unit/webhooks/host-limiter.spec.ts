import { HostLimiter } from '../../../src/webhooks/host-limiter';

/** A task that runs until its `finish` is called, noting when it started. */
function task(started: string[], name: string) {
  let finish!: () => void;
  const done = new Promise<string>((resolve) => (finish = () => resolve(name)));
  return { run: () => (started.push(name), done), finish: () => finish() };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('HostLimiter', () => {
  it('runs at most its limit per host at once, queues the rest in order, and refuses past the queue', async () => {
    const limiter = new HostLimiter(2, 1);
    const started: string[] = [];
    const [a, b, c, d] = ['a', 'b', 'c', 'd'].map((n) => task(started, n));
    const runs = [limiter.tryRun('h', a.run), limiter.tryRun('h', b.run), limiter.tryRun('h', c.run)];
    expect(limiter.tryRun('h', d.run)).toBeNull();
    expect(limiter.tryRun('other', task(started, 'x').run)).not.toBeNull();
    await settle();
    expect(started).toEqual(['a', 'b', 'x']);
    expect(limiter.free('h')).toBe(0);

    a.finish();
    await settle();
    expect(started).toEqual(['a', 'b', 'x', 'c']);
    b.finish();
    c.finish();
    await expect(Promise.all(runs)).resolves.toEqual(['a', 'b', 'c']);
    expect(limiter.free('h')).toBe(limiter.capacity);
  });

  it('starts every queued task at once on startQueued, past the limit, while the running ones go on', async () => {
    const limiter = new HostLimiter(1, 3);
    const started: string[] = [];
    const running = task(started, 'running');
    void limiter.tryRun('h', running.run);
    const queued = ['q1', 'q2', 'q3'].map((n) => limiter.tryRun('h', () => (started.push(n), Promise.resolve(n))));
    await settle();
    expect(started).toEqual(['running']);

    limiter.startQueued();
    await expect(Promise.all(queued)).resolves.toEqual(['q1', 'q2', 'q3']);
    expect(started).toEqual(['running', 'q1', 'q2', 'q3']);
    expect(limiter.free('h')).toBe(limiter.capacity - 1);
    running.finish();
    await settle();
    expect(limiter.free('h')).toBe(limiter.capacity);
  });
});
