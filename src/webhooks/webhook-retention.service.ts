import { Injectable } from '@nestjs/common';
import { Clock } from '../common/time/clock';
import { AppConfig } from '../config/app-config';
import { PurgeStep, WebhookRetentionRepository } from './webhook-retention.repository';

const DAY_MS = 24 * 60 * 60 * 1000;
/** Rows per statement: one short delete, so the purge never holds many row locks or a long transaction. */
const BATCH = 5000;

/** Deletes finished webhook events and delivery attempts WEBHOOK_RETENTION_DAYS after they were made. */
@Injectable()
export class WebhookRetentionService {
  constructor(
    private readonly repo: WebhookRetentionRepository,
    private readonly clock: Clock,
    private readonly config: AppConfig,
  ) {}

  async purgeExpired(): Promise<{ events: number; attempts: number }> {
    const cutoff = new Date(this.clock.now().getTime() - this.config.webhookRetentionDays * DAY_MS);
    const events = await this.walk((after) => this.repo.purgeEvents(cutoff, after, BATCH));
    const attempts = await this.walk((after) => this.repo.purgeAttempts(cutoff, after, BATCH));
    return { events, attempts };
  }

  private async walk(step: (afterId: number) => Promise<PurgeStep>): Promise<number> {
    let deleted = 0;
    let after = 0;
    for (;;) {
      const done = await step(after);
      deleted += done.deleted;
      if (!done.more) return deleted;
      after = done.lastId;
    }
  }
}
