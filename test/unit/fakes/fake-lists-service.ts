import type { ContactRecord } from '../../../src/contacts/contact-fields';
import type { ListsService } from '../../../src/lists/lists.service';
import { expectAccount, UnexpectedCall } from './strict';

export type ListMember = ContactRecord & { updated_at: Date };

/** ListsService.membersForSend for one account's lists (by id). */
export class FakeListsService implements Pick<ListsService, 'membersForSend'> {
  constructor(
    private readonly accountId: number,
    private readonly lists: Record<number, ListMember[]>,
  ) {}

  async membersForSend(accountId: number, listId: number): Promise<ListMember[]> {
    expectAccount('ListsService.membersForSend', this.accountId, accountId);
    const members = this.lists[listId];
    if (!members) throw new UnexpectedCall(`ListsService.membersForSend(${accountId}, ${listId})`, 'no such list in this test');
    return members.map((m) => ({ ...m }));
  }
}
