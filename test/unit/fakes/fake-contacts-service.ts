import type { ContactRecord } from '../../../src/contacts/contact-fields';
import type { ContactsService } from '../../../src/contacts/contacts.service';
import { expectAccount, UnexpectedCall } from './strict';

/** A contact with every text field empty; override the ones the test uses. */
export function aContact(overrides: Partial<ContactRecord> & { id: number; number: string }): ContactRecord {
  return { first_name: '', last_name: '', company: '', other: '', field_1: '', field_2: '', field_3: '', field_4: '', field_5: '', ...overrides };
}

/** ContactsService.fieldsForNumbers for one account's contacts (at most one per number). */
export class FakeContactsService implements Pick<ContactsService, 'fieldsForNumbers'> {
  /** The numbers asked for, one entry per call. */
  readonly lookups: string[][] = [];
  private readonly byNumber = new Map<string, ContactRecord>();

  constructor(
    private readonly accountId: number,
    contacts: ContactRecord[] = [],
  ) {
    for (const c of contacts) this.byNumber.set(c.number, c);
  }

  async fieldsForNumbers(accountId: number, numbers: string[]): Promise<Map<string, ContactRecord>> {
    expectAccount('ContactsService.fieldsForNumbers', this.accountId, accountId);
    if (numbers.length === 0) throw new UnexpectedCall('ContactsService.fieldsForNumbers', 'asked for no numbers');
    this.lookups.push([...numbers]);
    return new Map(numbers.filter((n) => this.byNumber.has(n)).map((n) => [n, this.byNumber.get(n)!]));
  }
}
