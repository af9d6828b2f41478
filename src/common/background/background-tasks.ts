import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';

/**
 * Work a request starts but does not wait for, so its answer takes the same time whatever the work
 * finds (a password-reset request for a known or an unknown email). Failures are logged, never thrown
 * to anyone; shutting down waits for what is running. The work is not durable: a crash loses it, so
 * use this only where the person can simply ask again.
 */
@Injectable()
export class BackgroundTasks implements OnModuleDestroy {
  private readonly logger = new Logger(BackgroundTasks.name);
  private readonly running = new Set<Promise<void>>();

  run(name: string, work: () => Promise<unknown>): void {
    const task: Promise<void> = new Promise<void>((resolve) => setImmediate(resolve))
      .then(work)
      .then(
        () => undefined,
        (err: unknown) => this.logger.error({ msg: 'background task failed', task: name, err: err instanceof Error ? err.message : String(err) }),
      )
      .finally(() => this.running.delete(task));
    this.running.add(task);
  }

  /** Resolves when everything started so far has finished (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.all([...this.running]);
  }

  async onModuleDestroy(): Promise<void> {
    await this.idle();
  }
}
