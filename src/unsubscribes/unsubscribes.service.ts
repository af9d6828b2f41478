import { Injectable } from '@nestjs/common';
import { Page, PageResult, pageResult } from '../common/http/pagination';
import { normaliseOrThrow } from '../common/phone';
import { ConsentService } from '../consent/consent.service';
import type { ConsentSource } from '../consent/consent-record.entity';
import type { ConsentEvidence } from '../consent/consent.repository';
import { ListsService } from '../lists/lists.service';
import type { UnsubscribeSource } from './unsubscribe.entity';
import { UnsubscribesRepository } from './unsubscribes.repository';
import { toUnsubscribeAdded, toUnsubscribeRemoved, toUnsubscribeView, UnsubscribeView } from './unsubscribes.mapper';
import { Tx, UnitOfWork } from '../database/unit-of-work';

@Injectable()
export class UnsubscribesService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly unsubscribes: UnsubscribesRepository,
    private readonly lists: ListsService,
    private readonly consent: ConsentService,
  ) {}

  async page(accountId: number, rawNumber: string | undefined, page: Page): Promise<PageResult<UnsubscribeView>> {
    const number = rawNumber === undefined || rawNumber === '' ? undefined : normaliseOrThrow(rawNumber);
    const { total, rows } = await this.unsubscribes.page(accountId, number, page);
    return pageResult(page, total, rows.map(toUnsubscribeView));
  }

  async addByApi(accountId: number, rawNumber: string, apiKeyId: number | null = null): Promise<ReturnType<typeof toUnsubscribeAdded>> {
    const number = normaliseOrThrow(rawNumber);
    return toUnsubscribeAdded(number, await this.unsubscribe(accountId, number, 'api', undefined, { apiKeyId }));
  }

  /** DELETE /v1/unsubscribes: the number is opted back in by the API (a consent record names the key). */
  async remove(accountId: number, rawNumber: string, apiKeyId: number | null = null): Promise<ReturnType<typeof toUnsubscribeRemoved>> {
    const number = normaliseOrThrow(rawNumber);
    const removed = await this.uow.run(async (tx) => {
      const gone = await this.unsubscribes.delete(accountId, number, tx);
      if (gone) await this.consent.record(accountId, number, 'opt_in', 'api', { apiKeyId }, tx);
      return gone;
    });
    return toUnsubscribeRemoved(number, removed);
  }

  /**
   * Opts a normalised number out of the account: it joins the unsubscribe list and leaves every list,
   * in one transaction (the contact itself stays). Returns false when it was already unsubscribed;
   * list memberships are removed either way (a number may have been re-added to a list since).
   */
  async unsubscribe(
    accountId: number,
    number: string,
    source: UnsubscribeSource,
    manager?: Tx,
    evidence: ConsentEvidence = {},
    consentSource: ConsentSource = source,
  ): Promise<boolean> {
    return this.uow.runIn(manager, async (m) => {
      const added = await this.unsubscribes.insert(accountId, number, source, m);
      await this.lists.removeNumberFromAllLists(accountId, number, m);
      // A change of standing is evidence: recorded with it, in the same transaction.
      if (added) await this.consent.record(accountId, number, 'opt_out', consentSource, evidence, m);
      return added;
    });
  }

  /**
   * Opts a number back in (START, a keyword rule, the dashboard): it leaves the unsubscribe list (false
   * when it was not on it). The opt-in is recorded when the number was opted out, and for a reply
   * (START or a keyword) every time, since the reply itself is consent.
   */
  async resubscribe(accountId: number, number: string, tx: Tx, how: { source: 'start' | 'keyword' | 'dashboard'; evidence: ConsentEvidence }): Promise<boolean> {
    const removed = await this.unsubscribes.delete(accountId, number, tx);
    if (removed || how.source !== 'dashboard') await this.consent.record(accountId, number, 'opt_in', how.source, how.evidence, tx);
    return removed;
  }

  /** The subset of numbers that are unsubscribed from the account (one query per batch). */
  /** The dashboard's list: newest first, filtered by digits of the number when given. */
  search(accountId: number, digits: string | null, limit: number, offset: number) {
    return this.unsubscribes.search(accountId, digits, limit, offset);
  }

  all(accountId: number) {
    return this.unsubscribes.all(accountId);
  }

  find(accountId: number, number: string) {
    return this.unsubscribes.find(accountId, number);
  }

  async unsubscribedAmong(accountId: number, numbers: string[], manager?: Tx): Promise<Set<string>> {
    return this.unsubscribes.filterUnsubscribed(accountId, numbers, manager);
  }
}
