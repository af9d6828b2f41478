import { Injectable } from '@nestjs/common';
import { failure } from '../../common/errors/error-catalogue';
import { ContactsService } from '../../contacts/contacts.service';
import { SEARCH_MAX_LENGTH, TRIGRAM } from '../../contacts/contact-search';
import { ListMembersService } from '../../lists/list-members.service';
import { ListsService } from '../../lists/lists.service';
import { formText, type FormBody } from '../../pages/form-body';
import { FormError, errorModel, withFormErrors } from '../../pages/form-error';
import { PageResult, redirectTo, view } from '../../pages/page-result';
import type { DashboardUser } from '../dashboard-user';
import { keysetCursorOf, keysetPager } from '../keyset-pager';
import { PAGES } from '../navigation';
import { noticeFor, withNotice } from '../notices';
import { ContactFormValues, contactFormFields, contactFormValues, contactRow, contactValuesOf } from './contact-form';

/** Contacts a page shows at once. */
export const CONTACTS_PER_PAGE = 50;
/** The contacts page counts an account's contacts up to this many (counting a million on every page costs more than it tells). */
const COUNT_UP_TO = 10_000;

/** A contact id from a path: anything but a positive integer is a contact that does not exist. */
export function contactIdOf(text: string): number {
  if (!/^\d{1,15}$/.test(text) || Number(text) < 1) throw failure('contactNotFound');
  return Number(text);
}

/** Contacts (`manage_contacts`): search and browse, add, edit, delete, and a contact's lists, through the API's own services. */
@Injectable()
export class ContactsPageService {
  constructor(
    private readonly contacts: ContactsService,
    private readonly lists: ListsService,
    private readonly members: ListMembersService,
  ) {}

  async list(user: DashboardUser, query: Record<string, unknown>): Promise<PageResult> {
    const search = typeof query.q === 'string' ? query.q.trim().slice(0, SEARCH_MAX_LENGTH) : '';
    const cursor = keysetCursorOf(query);
    const [page, total] = await Promise.all([
      this.contacts.browse(user.accountId, search, cursor, CONTACTS_PER_PAGE),
      search === '' ? this.contacts.countUpTo(user.accountId, COUNT_UP_TO + 1) : Promise.resolve(null),
    ]);
    return view('dashboard/views/contacts', {
      title: 'Contacts',
      notice: noticeFor(query.notice),
      search,
      total:
        total === null
          ? null
          : total > COUNT_UP_TO
            ? `More than ${COUNT_UP_TO.toLocaleString('en-AU')} contacts`
            : `${total.toLocaleString('en-AU')} contact${total === 1 ? '' : 's'}`,
      shortSearch: search !== '' && search.length < TRIGRAM,
      rows: page.rows.map(contactRow),
      pager: keysetPager(PAGES.contacts.path, { q: search }, page),
    });
  }

  newForm(error?: FormError, values?: ContactFormValues): PageResult {
    const blank = { number: '' } as ContactFormValues;
    return view(
      'dashboard/views/contact-edit',
      { title: 'Add a contact', isNew: true, action: PAGES.contacts.path, ...errorModel(error), fields: contactFormFields(values ?? blank) },
      error?.status ?? 200,
    );
  }

  async create(user: DashboardUser, form: FormBody | undefined): Promise<PageResult> {
    const values = contactFormValues(form);
    return withFormErrors<PageResult>(
      async () => {
        if (values.number === '') throw failure('required', 'number');
        const { number, ...fields } = values;
        const created = await this.contacts.create(user.accountId, { number, fields });
        return redirectTo(withNotice(`${PAGES.contacts.path}/${created.contact_id}`, 'contact_added'));
      },
      (error) => this.newForm(error, values),
    );
  }

  async edit(user: DashboardUser, id: string, notice?: unknown, error?: FormError, values?: ContactFormValues): Promise<PageResult> {
    const contactId = contactIdOf(id);
    const contact = await this.contacts.get(user.accountId, contactId);
    const [memberOf, lists] = await Promise.all([this.lists.listsOfContact(user.accountId, contactId), this.lists.names(user.accountId)]);
    const inList = new Set(memberOf.map((l) => l.id));
    return view(
      'dashboard/views/contact-edit',
      {
        title: `Contact ${contact.number}`,
        notice: noticeFor(notice),
        ...errorModel(error),
        contact: { id: contactId, number: contact.number },
        action: `${PAGES.contacts.path}/${contactId}`,
        fields: contactFormFields(values ?? contactValuesOf(contact)),
        memberOf,
        otherLists: lists.filter((l) => !inList.has(l.id)),
      },
      error?.status ?? 200,
    );
  }

  async save(user: DashboardUser, id: string, form: FormBody | undefined): Promise<PageResult> {
    const contactId = contactIdOf(id);
    const values = contactFormValues(form);
    return withFormErrors<PageResult>(
      async () => {
        if (values.number === '') throw failure('required', 'number');
        const { number, ...fields } = values;
        await this.contacts.update(user.accountId, { contactId, number, fields });
        return redirectTo(withNotice(`${PAGES.contacts.path}/${contactId}`, 'contact_saved'));
      },
      (error) => this.edit(user, id, undefined, error, values),
    );
  }

  /** Adds the contact to a list chosen from the account's lists, or to a new one named in the form. */
  async addToList(user: DashboardUser, id: string, form: FormBody | undefined): Promise<PageResult> {
    const contactId = contactIdOf(id);
    return withFormErrors<PageResult>(
      async () => {
        const listId = await this.chosenList(user.accountId, form);
        const { added } = await this.members.add(user.accountId, { listId, contactId });
        return redirectTo(withNotice(`${PAGES.contacts.path}/${contactId}`, added ? 'member_added' : 'member_already'));
      },
      (error) => this.edit(user, id, undefined, error),
    );
  }

  async removeFromList(user: DashboardUser, id: string, listIdText: string): Promise<PageResult> {
    const contactId = contactIdOf(id);
    if (!/^\d{1,15}$/.test(listIdText)) throw failure('listNotFound');
    await this.members.remove(user.accountId, { listId: Number(listIdText), contactId });
    return redirectTo(withNotice(`${PAGES.contacts.path}/${contactId}`, 'member_removed'));
  }

  async confirmDelete(user: DashboardUser, id: string): Promise<PageResult> {
    const contact = await this.contacts.get(user.accountId, contactIdOf(id));
    const memberOf = await this.lists.listsOfContact(user.accountId, contact.contact_id);
    return view('dashboard/views/contact-delete', { title: 'Delete contact', contact: contactRow(contact), lists: memberOf.length });
  }

  async delete(user: DashboardUser, id: string): Promise<PageResult> {
    // The API answers a contact that is not there with removed: false; a page says it was not found.
    if (!(await this.contacts.delete(user.accountId, contactIdOf(id))).removed) throw failure('contactNotFound');
    return redirectTo(withNotice(PAGES.contacts.path, 'contact_deleted'));
  }

  /** `list_id` of one of the account's lists, or `new_list`: a name to get or create. */
  private async chosenList(accountId: number, form: FormBody | undefined): Promise<number> {
    const newName = formText(form, 'new_list');
    if (newName !== '') return (await this.lists.getOrCreate(accountId, newName)).id;
    const listId = formText(form, 'list_id');
    if (listId === '') throw failure('required', 'list_id');
    if (!/^\d{1,15}$/.test(listId)) throw failure('listNotFound');
    return Number(listId);
  }
}
