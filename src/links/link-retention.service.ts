import { Injectable } from '@nestjs/common';
import { Clock } from '../common/time/clock';
import { AppConfig } from '../config/app-config';
import { LinkRetentionRepository } from './link-retention.repository';

const DAY_MS = 24 * 60 * 60 * 1000;
/** Pages per statement (8 MB): a statement of a few tens of milliseconds, so a delete never holds row locks long. */
const PAGES_PER_STATEMENT = 1024;
/**
 * Pages one run sweeps at most (200 MB): a large table is covered over several runs, resuming where the last
 * stopped, so no run reads gigabytes at once. At the default hourly run a 2 GB table is swept in ten hours.
 */
const PAGES_PER_RUN = 25_600;

/** Deletes short links (with their click counts) SHORT_LINK_RETENTION_DAYS after they were made. */
@Injectable()
export class LinkRetentionService {
  /** Where the next run resumes; a restarted worker starts a new cycle from the first page. */
  private nextPage = 0;

  constructor(
    private readonly repo: LinkRetentionRepository,
    private readonly clock: Clock,
    private readonly config: AppConfig,
  ) {}

  async purgeExpired(): Promise<number> {
    const cutoff = new Date(this.clock.now().getTime() - this.config.shortLinkRetentionDays * DAY_MS);
    const pages = await this.repo.pageCount();
    if (this.nextPage >= pages) this.nextPage = 0;
    const stop = Math.min(pages, this.nextPage + PAGES_PER_RUN);
    let deleted = 0;
    for (let from = this.nextPage; from < stop; from += PAGES_PER_STATEMENT) {
      deleted += await this.repo.purgePages(cutoff, from, Math.min(stop, from + PAGES_PER_STATEMENT));
    }
    this.nextPage = stop;
    return deleted;
  }
}
