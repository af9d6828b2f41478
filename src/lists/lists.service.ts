import { Injectable } from '@nestjs/common';
import { failure } from '../common/errors/error-catalogue';
import { Page } from '../common/http/pagination';
import { ListRow, ListsRepository } from './lists.repository';
import { toListCreated, toListDeleted, toListRenamed, toListsResult, toListView } from './lists.mapper';
import { Tx, UnitOfWork } from '../database/unit-of-work';
import { isUniqueViolation } from '../database/pg-errors';

function cleanName(name: string): string {
  const trimmed = name.trim();
  if (trimmed === '') throw failure('required', 'name');
  return trimmed;
}

@Injectable()
export class ListsService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly lists: ListsRepository,
  ) {}

  async list(accountId: number): Promise<ReturnType<typeof toListsResult>> {
    return toListsResult((await this.lists.findAllWithCounts(accountId)).map(toListView));
  }

  /** A page of the account's lists with member counts, newest first (the dashboard pages them). */
  async page(accountId: number, page: Page): Promise<{ total: number; rows: ListRow[] }> {
    return this.lists.pageWithCounts(accountId, page);
  }

  /** The account's lists by name, for choosing one in a form. */
  async names(accountId: number): Promise<Array<{ id: number; name: string }>> {
    return this.lists.names(accountId);
  }

  /** The lists a contact of the account is in. */
  async listsOfContact(accountId: number, contactId: number): Promise<Array<{ id: number; name: string }>> {
    return this.lists.listsOfContact(accountId, contactId);
  }

  async create(accountId: number, name: string): Promise<ReturnType<typeof toListCreated>> {
    return toListCreated(await this.lists.getOrCreate(accountId, cleanName(name)));
  }

  async rename(accountId: number, listId: number, rawName: string): Promise<ReturnType<typeof toListRenamed>> {
    const name = cleanName(rawName);
    const list = await this.lists.findById(accountId, listId);
    // The interface answers an unchanged name like an unknown list.
    if (!list || list.name === name) throw failure('listNotFound');
    if (await this.lists.nameTaken(accountId, name, listId)) throw failure('duplicateListName');
    try {
      if (!(await this.lists.rename(accountId, listId, name))) throw failure('listNotFound');
    } catch (err) {
      if (isUniqueViolation(err)) throw failure('duplicateListName');
      throw err;
    }
    return toListRenamed(listId, name);
  }

  async delete(accountId: number, listId: number, deleteContacts: boolean): Promise<ReturnType<typeof toListDeleted>> {
    const contactsDeleted = await this.uow.run((m) => this.lists.delete(accountId, listId, deleteContacts, m));
    if (contactsDeleted === null) throw failure('listNotFound');
    return toListDeleted(listId, contactsDeleted);
  }

  /** The list, or 404 List not found (also for another account's list). */
  async require(accountId: number, listId: number, manager?: Tx): Promise<{ id: number; name: string }> {
    const list = await this.lists.findById(accountId, listId, manager);
    if (!list) throw failure('listNotFound');
    return list;
  }

  async getOrCreate(accountId: number, name: string, manager?: Tx) {
    return this.lists.getOrCreate(accountId, cleanName(name), manager);
  }

  async addMembers(listId: number, contactIds: number[], manager: Tx): Promise<number> {
    return this.lists.addMembers(listId, contactIds, manager);
  }

  /** The list's members with their fields, for a list send (404 when the list is not the account's). */
  async membersForSend(accountId: number, listId: number) {
    await this.require(accountId, listId);
    return this.lists.membersWithFields(listId);
  }

  /** A keyword's list join: the number's contact (made when it has none) joins the account's list. */
  async addNumber(accountId: number, listId: number, number: string, tx: Tx): Promise<boolean> {
    return this.lists.addNumber(accountId, listId, number, tx);
  }

  /** A keyword's list leave: every contact of the account with the number leaves the list. */
  async removeNumber(accountId: number, listId: number, number: string, tx: Tx): Promise<number> {
    return this.lists.removeNumber(accountId, listId, number, tx);
  }

  /** An unsubscribe's effect on lists: every contact with the number leaves every list of the account. */
  async removeNumberFromAllLists(accountId: number, number: string, manager?: Tx): Promise<number> {
    return this.lists.removeNumberEverywhere(accountId, number, manager);
  }
}
