import { InjectQueue } from '@nestjs/bull';
import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import type { Queue } from 'bull';
import { BALANCE_QUEUE } from './balance-queue';
import { CONTACT_IMPORT_QUEUE } from './contact-import-queue';
import { DISPATCH_QUEUE } from './dispatch-queue';
import { WEBHOOK_QUEUE } from './webhook-queue';

/**
 * At most this long for a queue to stop taking jobs. The pause ends its blocking connection and opens it
 * again, which settles at once even with Redis gone (the reconnect fails fast); the bound is a safeguard.
 * It is waited for in full: a pause still under way when the queues close (just after) overlapped their
 * own pause and disconnect.
 */
const PAUSE_WAIT_MS = 5000;

/**
 * A stopping process takes no new job. Its workers finish what they have out (beforeApplicationShutdown), and
 * until the queues close after that, a job they took would be dropped (a stopping dispatcher claims nothing,
 * a stopping deliverer starts no drain) or would hold the stop (an import). So each queue stops taking jobs
 * here, first (every onModuleDestroy runs before any beforeApplicationShutdown): what is added meanwhile
 * waits for the other workers, or this one's next start. Jobs already running finish, as does one whose fetch
 * Redis had already answered as the pause began (the sweeps find what a stopping worker drops); in a
 * process that consumes nothing this does nothing.
 */
@Injectable()
export class JobIntake implements OnModuleDestroy {
  private readonly logger = new Logger(JobIntake.name);
  private readonly queues: Queue[];

  constructor(
    @InjectQueue(DISPATCH_QUEUE) dispatch: Queue,
    @InjectQueue(WEBHOOK_QUEUE) webhooks: Queue,
    @InjectQueue(BALANCE_QUEUE) balance: Queue,
    @InjectQueue(CONTACT_IMPORT_QUEUE) imports: Queue,
  ) {
    this.queues = [dispatch, webhooks, balance, imports];
  }

  async onModuleDestroy(): Promise<void> {
    await Promise.all(this.queues.map((queue) => this.stopTaking(queue)));
  }

  /** Bull's local pause: this process's processors take nothing more (the blocking fetch is cut short). */
  private async stopTaking(queue: Queue): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<void>((resolve) => (timer = setTimeout(resolve, PAUSE_WAIT_MS)));
    const paused = queue.pause(true, true).catch((err: Error) => this.logger.warn({ msg: 'queue not paused for the stop', queue: queue.name, err: err.message }));
    await Promise.race([paused, waited]);
    clearTimeout(timer);
  }
}
