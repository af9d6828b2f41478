import { Injectable } from '@nestjs/common';
import { AccountsService } from '../accounts/accounts.service';
import { classifyDependencyFailure } from '../common/errors/dependency-errors';
import { failure, failureBecause } from '../common/errors/error-catalogue';
import { Page, PageResult, pageResult } from '../common/http/pagination';
import { normaliseOrThrow } from '../common/phone';
import { CONTACT_TEXT_FIELDS, ContactRecord, ContactTextField } from './contact-fields';
import { isUniqueViolation } from '../database/pg-errors';
import { KeysetCursor, KeysetPage, keysetPage } from '../common/http/keyset';
import { ContactFilters, ContactsRepository } from './contacts.repository';
import { contactSearchOf } from './contact-search';
import { ContactCreated, ContactDeleted, ContactUpdated, ContactView, toContactCreated, toContactDeleted, toContactUpdated, toContactView } from './contacts.mapper';
import { Tx } from '../database/unit-of-work';

/** Contact text fields by their placeholder names (`first_name`…), which are the domain's own names. */
export type ContactTextInput = Partial<Record<ContactTextField, string>>;

export interface CreateContactCommand {
  number: string;
  fields: ContactTextInput;
}

export interface UpdateContactCommand {
  contactId: number;
  number?: string;
  fields: ContactTextInput;
}

function textFieldsOf(input: ContactTextInput): ContactTextInput {
  const out: ContactTextInput = {};
  for (const field of CONTACT_TEXT_FIELDS) if (input[field] !== undefined) out[field] = input[field];
  return out;
}

@Injectable()
export class ContactsService {
  constructor(
    private readonly contacts: ContactsRepository,
    private readonly accounts: AccountsService,
  ) {}

  async list(accountId: number, query: { number?: string; fields: ContactTextInput }, page: Page): Promise<PageResult<ContactView>> {
    const filters: ContactFilters = { text: textFieldsOf(query.fields) };
    if (query.number !== undefined) filters.number = normaliseOrThrow(query.number);
    for (const [field, value] of Object.entries(filters.text)) if (value === '') delete filters.text[field as ContactTextField];
    const { total, rows } = await this.contacts.search(accountId, filters, page);
    return pageResult(page, total, rows.map(toContactView));
  }

  /**
   * A page of the account's contacts for people (the dashboard): newest first, matching a search box's
   * text when given (contact-search.ts), by keyset from the cursor.
   */
  async browse(accountId: number, search: string, cursor: KeysetCursor, limit: number): Promise<KeysetPage<ContactView>> {
    const { rows, stoppedAt } = await this.contacts.page(accountId, contactSearchOf(search), cursor, limit + 1);
    const page = keysetPage(rows, cursor, limit, (r) => r.id, stoppedAt);
    return { ...page, rows: page.rows.map(toContactView) };
  }

  /** How many contacts the account holds, up to `cap`. */
  async countUpTo(accountId: number, cap: number): Promise<number> {
    return this.contacts.countUpTo(accountId, cap);
  }

  /** One contact, or 404 Contact not found (also for another account's). */
  async get(accountId: number, contactId: number): Promise<ContactView> {
    const row = await this.contacts.findById(accountId, contactId);
    if (!row) throw failure('contactNotFound');
    return toContactView(row);
  }

  async create(accountId: number, command: CreateContactCommand): Promise<ContactCreated> {
    const number = normaliseOrThrow(command.number);
    const { allowDuplicateContacts } = await this.accounts.get(accountId);
    const fields = Object.fromEntries(CONTACT_TEXT_FIELDS.map((f) => [f, command.fields[f] ?? ''])) as Record<ContactTextField, string>;
    let id: number | null;
    try {
      id = await this.contacts.insert(accountId, number, fields, allowDuplicateContacts);
    } catch (err) {
      if (classifyDependencyFailure(err)) throw err;
      throw failureBecause(err, 'failedToAddContact');
    }
    if (id === null) throw failure('duplicateContact');
    return toContactCreated(id, number);
  }

  async update(accountId: number, command: UpdateContactCommand): Promise<ContactUpdated> {
    const changes: Partial<Record<'number' | ContactTextField, string>> = textFieldsOf(command.fields);
    if (command.number !== undefined) changes.number = normaliseOrThrow(command.number);
    if (Object.keys(changes).length === 0) throw failure('noFieldsToUpdate');
    const existing = await this.contacts.findById(accountId, command.contactId);
    if (!existing) throw failure('contactNotFound');
    if (changes.number !== undefined && changes.number !== existing.number) {
      const { allowDuplicateContacts } = await this.accounts.get(accountId);
      if (!allowDuplicateContacts && (await this.contacts.numberTakenByAnother(accountId, changes.number, existing.id))) {
        throw failure('duplicateContact');
      }
    }
    try {
      if (!(await this.contacts.update(accountId, existing.id, changes))) throw failure('contactNotFound');
    } catch (err) {
      if (isUniqueViolation(err)) throw failure('duplicateContact');
      throw err;
    }
    return toContactUpdated(existing.id);
  }

  async delete(accountId: number, contactId: number): Promise<ContactDeleted> {
    return toContactDeleted(contactId, await this.contacts.delete(accountId, contactId));
  }

  async exists(accountId: number, contactId: number): Promise<boolean> {
    return (await this.contacts.findById(accountId, contactId)) !== null;
  }

  /** The contact for a number, created with the given fields when the number is new. */
  async ensureContact(accountId: number, rawNumber: string, input: ContactTextInput): Promise<{ contactId: number; created: boolean }> {
    const number = normaliseOrThrow(rawNumber);
    const existing = await this.contacts.findLatestByNumber(accountId, number);
    if (existing) return { contactId: existing.id, created: false };
    const { allowDuplicateContacts } = await this.accounts.get(accountId);
    const fields = Object.fromEntries(CONTACT_TEXT_FIELDS.map((f) => [f, input[f] ?? ''])) as Record<ContactTextField, string>;
    const id = await this.contacts.insert(accountId, number, fields, allowDuplicateContacts);
    if (id !== null) return { contactId: id, created: true };
    // Created concurrently by another request: use that one.
    const raced = await this.contacts.findLatestByNumber(accountId, number);
    if (!raced) throw failure('failedToAddContact');
    return { contactId: raced.id, created: false };
  }

  /** Set-based upsert of clean, unique rows (CSV imports), inside the caller's transaction. */
  async importMany(accountId: number, rows: Array<{ number: string; fields: Record<ContactTextField, string> }>, columns: readonly ContactTextField[], tx: Tx) {
    const { allowDuplicateContacts } = await this.accounts.get(accountId, tx);
    return this.contacts.upsertMany(accountId, rows, columns, allowDuplicateContacts, tx);
  }

  /** Placeholder values per number for a batch (one query): the contact's fields plus nothing else. */
  async fieldsForNumbers(accountId: number, numbers: string[]): Promise<Map<string, ContactRecord>> {
    return new Map((await this.contacts.findLatestByNumbers(accountId, numbers)).map((c) => [c.number, c]));
  }

  /** The contact supplying placeholders for a number (most recently updated when duplicates exist). */
  async findForNumber(accountId: number, number: string): Promise<ContactRecord | null> {
    return this.contacts.findLatestByNumber(accountId, number);
  }
}
