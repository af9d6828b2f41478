import { MetricsRegistry } from '../../../src/metrics/metrics-registry';
import { PeriodicRunner } from '../../../src/periodic/periodic-runner';
import type { PeriodicWork } from '../../../src/periodic/periodic-work';

const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function counted(registry: MetricsRegistry, work: string, outcome: string): Promise<number> {
  const metric = await registry.registry.getSingleMetric('sms_periodic_runs_total')!.get();
  return metric.values.find((v) => v.labels.work === work && v.labels.outcome === outcome)?.value ?? 0;
}

describe(PeriodicRunner.name, () => {
  it('never starts a run of one item while its last run is still going, and waits for it on shutdown', async () => {
    let running = 0;
    let most = 0;
    let runs = 0;
    let finished = 0;
    const slow: PeriodicWork = {
      name: 'slow',
      everyMs: 5,
      run: async () => {
        runs++;
        most = Math.max(most, ++running);
        await tick(40);
        running--;
        finished++;
      },
    };
    const runner = new PeriodicRunner([slow], new MetricsRegistry());
    runner.onApplicationBootstrap();
    // a loaded machine may fire the 5 ms turns late; wait for runs, not for a fixed time
    for (let i = 0; i < 300 && runs < 3; i++) await tick(10);
    await runner.beforeApplicationShutdown();
    expect(most).toBe(1);
    expect(runs).toBeGreaterThanOrEqual(2);
    expect(finished).toBe(runs);
    const after = runs;
    await tick(60);
    expect(runs).toBe(after);
  });

  it('counts failures and runs the item again on its next turn', async () => {
    let calls = 0;
    const registry = new MetricsRegistry();
    const flaky: PeriodicWork = {
      name: 'flaky',
      everyMs: 5,
      run: async () => {
        if (++calls === 1) throw new Error('database gone');
      },
    };
    const runner = new PeriodicRunner([flaky], registry);
    runner.onApplicationBootstrap();
    for (let i = 0; i < 100 && calls < 3; i++) await tick(10);
    await runner.beforeApplicationShutdown();
    expect(await counted(registry, 'flaky', 'failed')).toBe(1);
    expect(await counted(registry, 'flaky', 'ok')).toBe(calls - 1);
    expect(calls).toBeGreaterThanOrEqual(3);
  });

  it('leaves out work whose interval is 0, and refuses two items of one name', async () => {
    const work = (name: string, everyMs: number): PeriodicWork => ({ name, everyMs, run: async () => undefined });
    const runner = new PeriodicRunner([work('on', 10), work('off', 0)], new MetricsRegistry());
    expect(runner.names()).toEqual(['on']);
    expect(() => new PeriodicRunner([work('twice', 10), work('twice', 20)], new MetricsRegistry())).toThrow('periodic work names must be unique');
  });
});
