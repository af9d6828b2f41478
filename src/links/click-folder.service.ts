import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { LinkClicksService } from './link-clicks.service';

/**
 * Folds appended clicks into the links' counters every CLICK_FOLD_INTERVAL_MS, so the event table
 * stays small; reads fold first as well, so they never wait for it. Safe on many instances at once.
 */
@Injectable()
export class ClickFolder implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(ClickFolder.name);
  private timer?: NodeJS.Timeout;
  private running = false;

  constructor(
    private readonly clicks: LinkClicksService,
    private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.tick(), this.config.clickFoldIntervalMs);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    if (this.timer) clearInterval(this.timer);
  }

  private async tick(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      await this.clicks.foldAll();
    } catch (err) {
      this.logger.warn({ msg: 'folding link clicks failed; retried on the next tick', err: (err as Error).message });
    } finally {
      this.running = false;
    }
  }
}
