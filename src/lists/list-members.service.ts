import { Injectable } from '@nestjs/common';
import { failure } from '../common/errors/error-catalogue';
import { Page, pageResult } from '../common/http/pagination';
import { KeysetCursor, KeysetPage, keysetPage } from '../common/http/keyset';
import { normaliseOrThrow } from '../common/phone';
import { ContactView, toContactView } from '../contacts/contacts.mapper';
import { ContactsService, ContactTextInput } from '../contacts/contacts.service';
import { ListsRepository } from './lists.repository';
import { ListMembersPage, toListMembersPage, toMemberAdded, toMemberRemoved } from './lists.mapper';
import { ListsService } from './lists.service';

/** A member by contact id, or by number (created with these fields when new). */
export interface ListMemberCommand {
  listId: number;
  contactId?: number;
  number?: string;
  fields?: ContactTextInput;
}

@Injectable()
export class ListMembersService {
  constructor(
    private readonly lists: ListsService,
    private readonly repo: ListsRepository,
    private readonly contacts: ContactsService,
  ) {}

  async page(accountId: number, listId: number, page: Page): Promise<ListMembersPage> {
    await this.lists.require(accountId, listId);
    const { total, rows } = await this.repo.memberPage(listId, page);
    return toListMembersPage(listId, pageResult(page, total, rows.map(toContactView)));
  }

  /** A page of a list's members for people: newest contact first, by keyset, with the member count. */
  async browse(accountId: number, listId: number, cursor: KeysetCursor, limit: number): Promise<KeysetPage<ContactView> & { list: { id: number; name: string }; total: number }> {
    const list = await this.lists.require(accountId, listId);
    const [rows, total] = await Promise.all([this.repo.memberKeysetPage(listId, cursor, limit + 1), this.repo.memberCount(listId)]);
    const page = keysetPage(rows, cursor, limit, (r) => r.id);
    return { ...page, rows: page.rows.map(toContactView), list, total };
  }

  /** How many contacts a list of the account has (404 when the list is not the account's). */
  async count(accountId: number, listId: number): Promise<number> {
    await this.lists.require(accountId, listId);
    return this.repo.memberCount(listId);
  }

  async add(accountId: number, command: ListMemberCommand): Promise<ReturnType<typeof toMemberAdded>> {
    if (command.contactId === undefined && command.number === undefined) throw failure('contactOrNumberRequired');
    if (command.contactId === undefined) normaliseOrThrow(command.number!); // a bad number is a 400 before the list is looked up
    await this.lists.require(accountId, command.listId);
    let contactId: number;
    if (command.contactId !== undefined) {
      if (!(await this.contacts.exists(accountId, command.contactId))) throw failure('contactNotFound');
      contactId = command.contactId;
    } else {
      contactId = (await this.contacts.ensureContact(accountId, command.number!, command.fields ?? {})).contactId;
    }
    return toMemberAdded(command.listId, contactId, await this.repo.addMember(command.listId, contactId));
  }

  async remove(accountId: number, command: ListMemberCommand): Promise<ReturnType<typeof toMemberRemoved>> {
    if (command.contactId === undefined && command.number === undefined) throw failure('contactOrNumberRequired');
    const number = command.contactId === undefined ? normaliseOrThrow(command.number!) : undefined;
    await this.lists.require(accountId, command.listId);
    const contactId = command.contactId ?? (await this.repo.findMemberByNumber(command.listId, accountId, number!));
    if (contactId === null) return toMemberRemoved(command.listId, null, false);
    // The list belongs to the caller, so removing by id cannot touch another account's data.
    return toMemberRemoved(command.listId, contactId, await this.repo.removeMember(command.listId, contactId));
  }
}
