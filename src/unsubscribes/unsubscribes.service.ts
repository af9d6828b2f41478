import { Injectable } from '@nestjs/common';
import { Page, pageResult } from '../common/http/pagination';
import { formatUtc } from '../common/time/format';
import { normaliseOrThrow } from '../contacts/contacts.service';
import { ListsService } from '../lists/lists.service';
import type { UnsubscribeSource } from './unsubscribe.entity';
import { UnsubscribesRepository } from './unsubscribes.repository';
import { Tx, UnitOfWork } from '../database/unit-of-work';

@Injectable()
export class UnsubscribesService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly unsubscribes: UnsubscribesRepository,
    private readonly lists: ListsService,
  ) {}

  async page(accountId: number, rawNumber: string | undefined, page: Page) {
    const number = rawNumber === undefined || rawNumber === '' ? undefined : normaliseOrThrow(rawNumber);
    const { total, rows } = await this.unsubscribes.page(accountId, number, page);
    return pageResult(
      page,
      total,
      rows.map((r) => ({ number: r.number, source: r.source, unsubscribed_at: formatUtc(r.created_at) })),
    );
  }

  async addByApi(accountId: number, rawNumber: string) {
    const number = normaliseOrThrow(rawNumber);
    const added = await this.unsubscribe(accountId, number, 'api');
    return { status: 'complete' as const, number, added };
  }

  async remove(accountId: number, rawNumber: string) {
    const number = normaliseOrThrow(rawNumber);
    return { status: 'complete' as const, number, removed: await this.unsubscribes.delete(accountId, number) };
  }

  /**
   * Opts a normalised number out of the account: it joins the unsubscribe list and leaves every list,
   * in one transaction (the contact itself stays). Returns false when it was already unsubscribed;
   * list memberships are removed either way (a number may have been re-added to a list since).
   */
  async unsubscribe(accountId: number, number: string, source: UnsubscribeSource, manager?: Tx): Promise<boolean> {
    return this.uow.runIn(manager, async (m) => {
      const added = await this.unsubscribes.insert(accountId, number, source, m);
      await this.lists.removeNumberFromAllLists(accountId, number, m);
      return added;
    });
  }

  /** The subset of numbers that are unsubscribed from the account (one query per batch). */
  async unsubscribedAmong(accountId: number, numbers: string[], manager?: Tx): Promise<Set<string>> {
    return this.unsubscribes.filterUnsubscribed(accountId, numbers, manager);
  }
}
