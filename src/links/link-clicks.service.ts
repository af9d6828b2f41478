import { Injectable } from '@nestjs/common';
import { failure } from '../common/errors/error-catalogue';
import { Page, PageResult, pageResult } from '../common/http/pagination';
import { Clock } from '../common/time/clock';
import { isUuid } from '../common/validation/uuid';
import { AddressCounter } from '../common/redis/address-counter';
import { AppConfig } from '../config/app-config';
import { LINK_CODE_RE } from './link-codes';
import { LinkScope, LinksRepository } from './links.repository';
import { LinkClickView, toLinkClickView } from './links.mapper';
import { isPreviewHit } from './preview-agents';

const DAY_MS = 24 * 60 * 60 * 1000;
/** Hits folded per statement; a backlog is folded in several. */
const FOLD_BATCH = 5000;

export interface LinkClicksQueryInput {
  message_id?: string;
  send_id?: number;
}

/** Following short links (GET /{code}) and reporting their clicks (GET /v1/link-clicks). */
@Injectable()
export class LinkClicksService {
  constructor(
    private readonly links: LinksRepository,
    private readonly clock: Clock,
    private readonly config: AppConfig,
    private readonly counter: AddressCounter,
  ) {}

  /**
   * Where a short link goes, recording the hit (a person's click, or a preview apart); 404 when unknown or
   * expired. An address that followed SHORT_LINK_MISSES_PER_IP unknown codes in the window gets 429 (with
   * Retry-After) for every code, so codes and what personalised URLs carry cannot be guessed at scale;
   * only unknown codes count.
   */
  async follow(code: string, method: string, userAgent: string | undefined, ip: string): Promise<string> {
    const missesKey = `link-misses:${ip}`;
    // Every redirect reads the count; only a throttled address needs its window's end.
    if ((await this.counter.count(missesKey)) >= this.config.shortLinkMissesPerIp) {
      throw failure('shortLinkThrottled').retryAfter((await this.counter.peek(missesKey)).resetMs / 1000);
    }
    const url = LINK_CODE_RE.test(code) ? await this.links.followUrl(code, this.retentionStart(), isPreviewHit(method, userAgent)) : null;
    if (url === null) {
      await this.counter.add(missesKey, this.config.optoutAttemptWindowMs);
      throw failure('notFound');
    }
    return redirectLocation(url);
  }

  /** Links made before this are past retention. */
  retentionStart(): Date {
    return new Date(this.clock.now().getTime() - this.config.linkRetentionDays * DAY_MS);
  }

  /** Folds every appended hit into the counters (a backlog in several statements). */
  async foldAll(): Promise<number> {
    let total = 0;
    for (;;) {
      const folded = await this.links.fold(FOLD_BATCH);
      total += folded;
      if (folded < FOLD_BATCH) return total;
    }
  }

  /** Clicks by the day they happened on the account's calendar (reports); what has been appended is folded first. */
  async clicksByDay(accountId: number, period: { from: Date; toExclusive: Date; timeZone: string }): Promise<Array<{ day: string; clicks: number }>> {
    await this.foldAll();
    return this.links.clicksByDay(accountId, period.from, period.toExclusive, period.timeZone);
  }

  async page(accountId: number, query: LinkClicksQueryInput, page: Page): Promise<PageResult<LinkClickView>> {
    let scope: LinkScope;
    if (query.message_id !== undefined && query.message_id !== '') {
      // A malformed id names no message of this account: an empty page, as for an unknown one.
      if (!isUuid(query.message_id)) return pageResult(page, 0, []);
      scope = { messageId: query.message_id.toLowerCase() };
    } else if (query.send_id !== undefined) {
      scope = { sendId: query.send_id };
    } else {
      throw failure('linkClicksScopeRequired');
    }
    // Reads see every click so far: what has been appended is folded first.
    await this.foldAll();
    const { total, rows } = await this.links.pageClicks(accountId, scope, page);
    return pageResult(
      page,
      total,
      rows.map((r) => toLinkClickView(r, this.config.shortLinkBase)),
    );
  }
}

/**
 * The Location header for a stored URL: a header carries ASCII only, so the URL is normalised by the
 * WHATWG parser (punycode host, percent-encoded path); a URL it refuses is percent-encoded as written.
 */
export function redirectLocation(url: string): string {
  try {
    return new URL(url).href;
  } catch {
    return encodeURI(url.replace(/[\uD800-\uDFFF]/g, ''));
  }
}
