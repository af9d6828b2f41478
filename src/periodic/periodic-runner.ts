import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { RepeatedLines } from '../common/logging/repeated-lines';
import { MetricsRegistry } from '../metrics/metrics-registry';
import { PERIODIC_WORK, type PeriodicWork } from './periodic-work';

/**
 * Runs a role's periodic work: each item on its own timer, never two runs of one item at once (the next
 * run is timed from the end of the last), a failure logged and counted and the item run again on time.
 * On shutdown no run starts and the runs in progress are waited for.
 */
@Injectable()
export class PeriodicRunner implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(PeriodicRunner.name);
  /** A failing item (PostgreSQL away: every run fails alike) is written once a second with its count. */
  private readonly failures = new RepeatedLines((msg, meta) => this.logger.warn({ msg, ...meta }));
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly running = new Map<string, Promise<void>>();
  private stopped = false;
  private readonly runs;
  private readonly seconds;

  constructor(
    @Inject(PERIODIC_WORK) private readonly work: PeriodicWork[],
    registry: MetricsRegistry,
  ) {
    const names = new Set(work.map((w) => w.name));
    if (names.size !== work.length) throw new Error(`periodic work names must be unique: ${work.map((w) => w.name).join(', ')}`);
    this.runs = registry.counter(
      'sms_periodic_runs_total',
      'Runs of periodic work by outcome',
      ['work', 'outcome'],
      work.flatMap((w) => ['ok', 'failed'].map((outcome) => ({ work: w.name, outcome }))),
    );
    this.seconds = registry.histogram('sms_periodic_run_seconds', 'Duration of periodic work runs', [0.01, 0.05, 0.1, 0.5, 1, 5, 30, 120], ['work']);
  }

  /** The names of the work this process runs (switched-off items excluded). */
  names(): string[] {
    return this.work.filter((w) => w.everyMs > 0).map((w) => w.name);
  }

  onApplicationBootstrap(): void {
    for (const item of this.work) if (item.everyMs > 0) this.schedule(item, item.everyMs);
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
    await Promise.all(this.running.values());
  }

  private schedule(item: PeriodicWork, delayMs: number): void {
    if (this.stopped) return;
    const timer = setTimeout(() => {
      this.timers.delete(item.name);
      const started = performance.now();
      const run = this.runOnce(item).finally(() => {
        this.running.delete(item.name);
        this.schedule(item, item.everyMs);
      });
      this.running.set(item.name, run);
      void run.then(() => this.seconds.observe({ work: item.name }, (performance.now() - started) / 1000));
    }, delayMs);
    timer.unref();
    this.timers.set(item.name, timer);
  }

  private async runOnce(item: PeriodicWork): Promise<void> {
    try {
      await item.run();
      this.runs.inc({ work: item.name, outcome: 'ok' });
    } catch (err) {
      this.runs.inc({ work: item.name, outcome: 'failed' });
      this.failures.note('periodic work failed; it runs again on its next turn', { work: item.name, err: (err as Error).message }, item.name);
    }
  }
}
