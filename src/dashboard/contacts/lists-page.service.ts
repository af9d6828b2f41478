import { Injectable } from '@nestjs/common';
import { failure } from '../../common/errors/error-catalogue';
import { ListMembersService } from '../../lists/list-members.service';
import { ListsService } from '../../lists/lists.service';
import { formText, type FormBody } from '../../pages/form-body';
import { FormError, errorModel, withFormErrors } from '../../pages/form-error';
import { PageResult, redirectTo, view } from '../../pages/page-result';
import type { DashboardUser } from '../dashboard-user';
import { pager, show } from '../format';
import { keysetCursorOf, keysetPager } from '../keyset-pager';
import { PAGES } from '../navigation';
import { noticeFor, withNotice } from '../notices';
import { contactIdOf, CONTACTS_PER_PAGE } from './contacts-page.service';
import { contactRow } from './contact-form';

/** Lists a page shows at once. */
export const LISTS_PER_PAGE = 50;

/** A list id from a path: anything but a positive integer is a list that does not exist. */
function listIdOf(text: string): number {
  if (!/^\d{1,15}$/.test(text) || Number(text) < 1) throw failure('listNotFound');
  return Number(text);
}

const listPath = (id: number) => `${PAGES.contactLists.path}/${id}`;

/** Lists (`manage_contacts`): create, rename, delete, and their members, through the API's own services. */
@Injectable()
export class ListsPageService {
  constructor(
    private readonly lists: ListsService,
    private readonly members: ListMembersService,
  ) {}

  async list(user: DashboardUser, query: Record<string, unknown>, error?: FormError, typedName?: string): Promise<PageResult> {
    const offset = typeof query.offset === 'string' && /^\d{1,9}$/.test(query.offset) ? Number(query.offset) : 0;
    const page = { limit: LISTS_PER_PAGE, offset };
    const { total, rows } = await this.lists.page(user.accountId, page);
    return view(
      'dashboard/views/lists',
      {
        title: 'Lists',
        notice: noticeFor(query.notice),
        ...errorModel(error),
        name: typedName ?? '',
        rows: rows.map((l) => ({ id: l.id, name: l.name, count: l.contactCount, createdAt: show.time(l.createdAt, user.timeZone) })),
        pager: pager(PAGES.contactLists.path, {}, page, total, rows.length),
      },
      error?.status ?? 200,
    );
  }

  async create(user: DashboardUser, form: FormBody | undefined): Promise<PageResult> {
    const name = formText(form, 'name');
    return withFormErrors<PageResult>(
      async () => {
        const list = await this.lists.create(user.accountId, name);
        return redirectTo(withNotice(listPath(list.list_id), list.existing ? 'list_exists' : 'list_created'));
      },
      (error) => this.list(user, {}, error, name),
    );
  }

  async show(user: DashboardUser, id: string, query: Record<string, unknown>, error?: FormError, typed?: { name?: string; number?: string }): Promise<PageResult> {
    const listId = listIdOf(id);
    const page = await this.members.browse(user.accountId, listId, keysetCursorOf(query), CONTACTS_PER_PAGE);
    return view(
      'dashboard/views/list',
      {
        title: `List ${page.list.name}`,
        notice: noticeFor(query.notice),
        ...errorModel(error),
        list: { id: listId, name: page.list.name, total: page.total },
        name: typed?.name ?? page.list.name,
        number: typed?.number ?? '',
        rows: page.rows.map(contactRow),
        pager: keysetPager(listPath(listId), {}, page),
      },
      error?.status ?? 200,
    );
  }

  async rename(user: DashboardUser, id: string, form: FormBody | undefined): Promise<PageResult> {
    const listId = listIdOf(id);
    const name = formText(form, 'name');
    return withFormErrors<PageResult>(
      async () => {
        const current = await this.lists.require(user.accountId, listId);
        if (current.name !== name.trim()) await this.lists.rename(user.accountId, listId, name);
        return redirectTo(withNotice(listPath(listId), 'list_renamed'));
      },
      (error) => this.show(user, id, {}, error, { name }),
    );
  }

  /** Adds a contact by number, creating the contact when the number is new (as POST /v1/list-contacts does). */
  async addMember(user: DashboardUser, id: string, form: FormBody | undefined): Promise<PageResult> {
    const listId = listIdOf(id);
    const number = formText(form, 'number');
    return withFormErrors<PageResult>(
      async () => {
        if (number === '') throw failure('required', 'number');
        const { added } = await this.members.add(user.accountId, { listId, number, fields: {} });
        return redirectTo(withNotice(listPath(listId), added ? 'member_added' : 'member_already'));
      },
      (error) => this.show(user, id, {}, error, { number }),
    );
  }

  async removeMember(user: DashboardUser, id: string, contactId: string): Promise<PageResult> {
    const listId = listIdOf(id);
    await this.members.remove(user.accountId, { listId, contactId: contactIdOf(contactId) });
    return redirectTo(withNotice(listPath(listId), 'member_removed'));
  }

  async confirmDelete(user: DashboardUser, id: string): Promise<PageResult> {
    const list = await this.lists.require(user.accountId, listIdOf(id));
    const total = await this.members.count(user.accountId, list.id);
    return view('dashboard/views/list-delete', { title: 'Delete list', list: { id: list.id, name: list.name, total } });
  }

  async delete(user: DashboardUser, id: string, form: FormBody | undefined): Promise<PageResult> {
    const deleteContacts = formText(form, 'delete_contacts') === 'yes';
    await this.lists.delete(user.accountId, listIdOf(id), deleteContacts);
    return redirectTo(withNotice(PAGES.contactLists.path, deleteContacts ? 'list_and_contacts_deleted' : 'list_deleted'));
  }
}
