import { Injectable } from '@nestjs/common';
import { failure } from '../common/errors/error-catalogue';
import { Page, pageResult } from '../common/http/pagination';
import { toContactView } from '../contacts/contacts.mapper';
import { ContactsService, ContactTextInput, normaliseOrThrow } from '../contacts/contacts.service';
import { ListsRepository } from './lists.repository';
import { ListsService } from './lists.service';

@Injectable()
export class ListMembersService {
  constructor(
    private readonly lists: ListsService,
    private readonly repo: ListsRepository,
    private readonly contacts: ContactsService,
  ) {}

  async page(accountId: number, listId: number, page: Page) {
    await this.lists.require(accountId, listId);
    const { total, rows } = await this.repo.memberPage(listId, page);
    const { status, ...rest } = pageResult(page, total, rows.map(toContactView));
    return { status, list_id: listId, ...rest };
  }

  async add(accountId: number, input: { list_id: number; contact_id?: number; number?: string } & ContactTextInput) {
    if (input.contact_id === undefined && input.number === undefined) throw failure('contactOrNumberRequired');
    if (input.contact_id === undefined) normaliseOrThrow(input.number!); // a bad number is a 400 before the list is looked up
    await this.lists.require(accountId, input.list_id);
    let contactId: number;
    if (input.contact_id !== undefined) {
      if (!(await this.contacts.exists(accountId, input.contact_id))) throw failure('contactNotFound');
      contactId = input.contact_id;
    } else {
      contactId = (await this.contacts.ensureContact(accountId, input.number!, input)).contactId;
    }
    const added = await this.repo.addMember(input.list_id, contactId);
    return { status: 'complete' as const, list_id: input.list_id, contact_id: contactId, added };
  }

  async remove(accountId: number, input: { list_id: number; contact_id?: number; number?: string }) {
    if (input.contact_id === undefined && input.number === undefined) throw failure('contactOrNumberRequired');
    const number = input.contact_id === undefined ? normaliseOrThrow(input.number!) : undefined;
    await this.lists.require(accountId, input.list_id);
    const contactId = input.contact_id ?? (await this.repo.findMemberByNumber(input.list_id, accountId, number!));
    if (contactId === null) return { status: 'complete' as const, list_id: input.list_id, contact_id: null, removed: false };
    // The list belongs to the caller, so removing by id cannot touch another account's data.
    const removed = await this.repo.removeMember(input.list_id, contactId);
    return { status: 'complete' as const, list_id: input.list_id, contact_id: contactId, removed };
  }
}
